/* run_resume.c - `gpubound run` going on in a new process after a kernel
 * fault (run_resume.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_resume.h"

int gb_run_resume_format(char *buf, size_t n, const char *dir, size_t next, int restarts, double t_start,
                         const char *started_utc)
{
    int len = snprintf(buf, n, "%zu %d %.9f %s %s", next, restarts, t_start, started_utc, dir);
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

int gb_run_resume_take(const char *out, struct gb_session_resume *rz, char *dir, size_t n, char *why, size_t why_n)
{
    const char *v = getenv(GB_RUN_RESUME_ENV);
    char text[4400];
    int at = -1, rc = 1;
    memset(rz, 0, sizeof *rz);
    if (!v)
        return 0;
    snprintf(text, sizeof text, "%s", v);
    unsetenv(GB_RUN_RESUME_ENV); /* nothing this process starts inherits it */
    if (sscanf(text, "%zu %d %lf %31s %n", &rz->next, &rz->restarts, &rz->t_start, rz->started_utc, &at) != 4 ||
        at < 0 || !text[at] || rz->next == 0 || rz->restarts < 1 || rz->restarts > GB_RUN_MAX_RESTARTS ||
        !isfinite(rz->t_start) || rz->t_start < 0) {
        snprintf(why, why_n, "%s='%.200s' is not a resume marker (NEXT RESTARTS T_START STARTED_UTC DIR)",
                 GB_RUN_RESUME_ENV, text);
        rc = -1;
    } else if (out && strcmp(out, text + at) != 0) {
        snprintf(why, why_n, "%s names the run directory %.200s, not this run's --out %.200s", GB_RUN_RESUME_ENV,
                 text + at, out);
        rc = -1;
    } else if ((size_t)snprintf(dir, n, "%s", text + at) >= n) {
        snprintf(why, why_n, "%s: the run directory's name is too long", GB_RUN_RESUME_ENV);
        rc = -1;
    }
    return rc;
}

int gb_run_restart(const struct gb_session_result *res, const char *out, const struct gb_session_resume *prev,
                   double t_start)
{
    int restarts = (prev ? prev->restarts : 0) + 1;
    size_t total = res->resume_next; /* points recorded so far */
    char marker[4400];
    if (restarts > GB_RUN_MAX_RESTARTS) {
        fprintf(stderr, "gpubound: %s; %d kernels faulted, more than the %d a run goes on after: the run stopped, "
                        "its %zu recorded point(s) are in %s; leave the faulting configurations out (--set)\n",
                res->info.incomplete_reason, restarts, GB_RUN_MAX_RESTARTS, total, out);
        return GB_EXIT_FAIL;
    }
    if (gb_run_resume_format(marker, sizeof marker, out, res->resume_next, restarts, t_start,
                             res->info.started_utc) != 0 ||
        setenv(GB_RUN_RESUME_ENV, marker, 1) != 0 || !gb_cli_argv()) {
        fprintf(stderr, "gpubound: %s, but the run cannot start anew; its %zu point(s) are kept in %s\n",
                res->info.incomplete_reason, total, out);
        return GB_EXIT_FAIL;
    }
    /* A sticky error: CUDA cannot be used again in this process. */
    fprintf(stderr, "gpubound: %s (restart %d of at most %d)\n", res->info.incomplete_reason, restarts,
            GB_RUN_MAX_RESTARTS);
    fflush(NULL);
    execv("/proc/self/exe", gb_cli_argv());
    fprintf(stderr, "gpubound: starting %s anew failed: %s; the run's %zu point(s) are kept in %s\n",
            "/proc/self/exe", strerror(errno), total, out);
    return GB_EXIT_FAIL;
}
