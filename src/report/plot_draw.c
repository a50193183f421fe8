/* plot_draw.c - drawing a plot: gnuplot found in PATH, the script written
 * beside the images, and gnuplot run on it by fork/exec (no shell) in the
 * output directory, its images and log added to the result. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpubound/plot.h"
#include "plot_internal.h"
#include "report_internal.h"

int gb_plot_available(char *buf, size_t n)
{
    const char *path = getenv("PATH");
    char cand[4096];
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        struct stat sb;
        /* An empty PATH entry means the current directory. */
        if (len == 0)
            snprintf(cand, sizeof cand, "./gnuplot");
        else
            snprintf(cand, sizeof cand, "%.*s/gnuplot", (int)len, path);
        if (stat(cand, &sb) == 0 && S_ISREG(sb.st_mode) && access(cand, X_OK) == 0) {
            if (buf && n)
                snprintf(buf, n, "%s", cand);
            return 1;
        }
        path += len;
        if (*path == ':')
            path++;
    }
    return 0;
}

/* Runs gnuplot on `script` in `dir`, its output going to `log`. */
static enum gb_status gb_run_gnuplot(const char *gnuplot, const char *dir, const char *script,
                                     const char *log)
{
    enum gb_status st = GB_OK;
    int logfd = -1, nullfd = -1, wstatus = 0;
    pid_t pid;

    /* The log lies in the command's stage beside the chart; a link there is refused. */
    logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (logfd < 0 || nullfd < 0) {
        st = gb_error_set(GB_ERR_IO, "cannot open %s: %s", log, strerror(errno));
        goto out;
    }
    /* The child execs or _exits, so stdio buffers are neither flushed twice nor lost. */
    pid = fork();
    if (pid < 0) {
        st = gb_error_set(GB_ERR_IO, "cannot start gnuplot: %s", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        /* Only async-signal-safe calls from here to exec. */
        if (chdir(dir) != 0 || dup2(nullfd, 0) < 0 || dup2(logfd, 1) < 0 || dup2(logfd, 2) < 0)
            _exit(126);
        char *const argv[] = {(char *)"gnuplot", (char *)script, NULL};
        execv(gnuplot, argv);
        _exit(127);
    }
    while (waitpid(pid, &wstatus, 0) < 0) {
        if (errno != EINTR) {
            st = gb_error_set(GB_ERR_IO, "cannot wait for gnuplot: %s", strerror(errno));
            goto out;
        }
    }
    if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
        /* gnuplot's last line names the script line and what was wrong. */
        char line[512] = "", last[512] = "";
        int lfd = open(log, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        FILE *lf = lfd >= 0 ? fdopen(lfd, "r") : NULL;
        if (lfd >= 0 && !lf)
            close(lfd);
        while (lf && fgets(line, sizeof line, lf)) {
            line[strcspn(line, "\n")] = '\0';
            if (line[strspn(line, " \t^")])
                snprintf(last, sizeof last, "%s", line);
        }
        if (lf)
            fclose(lf);
        if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) >= 126)
            snprintf(last, sizeof last, "cannot run %.400s", gnuplot);
        st = gb_error_set(GB_ERR_IO, "gnuplot failed on %s/%s: %s", dir, script,
                          last[0] ? last : "no message");
    }
out:
    if (logfd >= 0)
        close(logfd);
    if (nullfd >= 0)
        close(nullfd);
    return st;
}

/* Writes <out_dir>/<name>.gp atomically and lists it in res->files. */
static enum gb_status gb_plot_script(const struct gb_plot *p, const char *out_dir, const char *script,
                                     struct gb_report_result *res)
{
    struct gb_atomic_file a;
    char path[GB_PATH_MAX];
    enum gb_status st;

    snprintf(path, sizeof path, "%s/%s", out_dir, script);
    if ((st = gb_atomic_open(&a, path, "w")) != GB_OK)
        return st;
    fprintf(a.f, "# %s - a chart of gpubound, drawn by: gnuplot %s (in this directory)\n",
            script, script);
    fputs("reset\n", a.f);
    switch (p->kind) {
    case GB_CHART_LINE: st = gb_gp_line(a.f, p); break;
    case GB_CHART_BAR: st = gb_gp_bar(a.f, p); break;
    case GB_CHART_HEAT: st = gb_gp_heat(a.f, p); break;
    default: st = gb_error_set(GB_ERR_USAGE, "plot %s: unknown kind", p->name); break;
    }
    if (st != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    gb_gp_finish(a.f, p);
    if ((st = gb_atomic_commit(&a)) != GB_OK)
        return st;
    return gb_result_add_file(res, out_dir, script);
}

/* Runs gnuplot on the script and checks the images it was to write; on
 * failure no image is left (the log stays for whoever debugs). */
static enum gb_status gb_plot_images(const struct gb_plot *p, const char *gnuplot, const char *out_dir,
                                     const char *script, struct gb_report_result *res)
{
    static const char *const exts[2] = {"svg", "png"};
    static const int formats[2] = {GB_PLOT_SVG, GB_PLOT_PNG};
    char path[GB_PATH_MAX + 32], log[GB_PATH_MAX + 32], file[160];
    enum gb_status st;

    snprintf(log, sizeof log, "%s/%s.log", out_dir, p->name);
    if ((st = gb_run_gnuplot(gnuplot, out_dir, script, log)) != GB_OK) {
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s.%s", out_dir, p->name, exts[i]);
            unlink(path);
        }
        return st;
    }
    unlink(log);
    for (int i = 0; i < 2; i++) {
        struct stat sb;
        if (!gb_plot_wants(p, formats[i]))
            continue;
        snprintf(file, sizeof file, "%s.%s", p->name, exts[i]);
        snprintf(path, sizeof path, "%s/%s", out_dir, file);
        if (stat(path, &sb) != 0 || sb.st_size == 0)
            return gb_error_set(GB_ERR_IO, "gnuplot did not write %s", path);
        if ((st = gb_result_add_file(res, out_dir, file)) != GB_OK)
            return st;
    }
    return GB_OK;
}

enum gb_status gb_plot_draw(const struct gb_plot *p, const char *out_dir,
                            struct gb_report_result *res)
{
    enum gb_status st;
    char gnuplot[4096], script[160];

    snprintf(script, sizeof script, "%s.gp", p->name);
    if ((st = gb_plot_script(p, out_dir, script, res)) != GB_OK)
        return st;
    if (!gb_plot_available(gnuplot, sizeof gnuplot)) {
        snprintf(res->note, sizeof res->note,
                 "gnuplot was not found in PATH; install it (apt-get install gnuplot-nox) "
                 "and run 'gpubound report RUN_DIR' again");
        return gb_result_add(&res->not_drawn, &res->n_not_drawn, p->name);
    }
    return gb_plot_images(p, gnuplot, out_dir, script, res);
}
