/* fleet_loop.c - the fleet's loop (gpubound/fleet_loop.h): members
 * measure, under MPI or one forked process per local GPU, and the first
 * gathers their parts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpubound/fleet.h"
#include "gpubound/fleet_loop.h"
#include "gpubound/fleet_records.h"
#include "gpubound/fleet_run.h"
#include "gpubound/session.h"
#include "gpubound/gpu.h"
#include "util/fs.h"

/* ---- one member ---- */

struct gb_member_ctx {
    const struct gb_fleet_loop_opts *o;
    struct gb_fleet_who who;
};

static enum gb_status gb_member_started(void *ctx, const struct gb_run_info *info, size_t n_points)
{
    const struct gb_member_ctx *m = ctx;
    return m->o->started ? m->o->started(m->o->ctx, &m->who, info, n_points) : GB_OK;
}

static void gb_member_point(void *ctx, size_t done, size_t total, const struct gb_plan_item *it,
                            const struct gb_record *r)
{
    const struct gb_member_ctx *m = ctx;
    if (m->o->point)
        m->o->point(m->o->ctx, &m->who, done, total, it, r);
}

/* A member's exit code, as a single run would have exited. */
static int gb_member_exit(const struct gb_fleet_member *m)
{
    if (m->state == GB_FLEET_NO_GPU)
        return gb_status_exit_code(GB_ERR_NO_GPU);
    if (m->state == GB_FLEET_FAILED)
        return 1;
    return m->info.points_failed ? 1 : 0;
}

/* Measures the plan as member `member` of `size` and fills `part`. */
static enum gb_status gb_member(const struct gb_plan *plan, const struct gb_fleet_loop_opts *o, const char *what,
                                int member, int size, int local, int device, struct gb_fleet_part *part)
{
    struct gb_member_ctx mc = {.o = o, .who = {.what = what, .member = member, .size = size}};
    struct gb_session_hooks hooks = {.started = gb_member_started, .point = gb_member_point, .ctx = &mc};
    struct gb_fleet_member_opts mo = {.rank = member, .local_rank = local, .device = device,
                                      .command_line = o->command_line, .quick = o->quick,
                                      .measure = o->measure, .hooks = &hooks};
    enum gb_status st = gb_fleet_member_run(plan, &mo, part);
    if (st != GB_OK)
        return st;
    part->m.exit_code = gb_member_exit(&part->m);
    if (o->ended)
        o->ended(o->ctx, &mc.who, part);
    return GB_OK;
}

/* A member whose part did not arrive: recorded as failed, with why. */
static void gb_lost_member(const struct gb_fleet_loop_opts *o, struct gb_fleet_part *p, int rank, const char *why)
{
    memset(p, 0, sizeof *p);
    p->m.rank = rank;
    p->m.local_rank = -1;
    snprintf(p->m.host, sizeof p->m.host, "unknown");
    p->m.state = GB_FLEET_FAILED;
    p->m.exit_code = 1;
    snprintf(p->m.reason, sizeof p->m.reason, "%s", why);
    gb_run_info_init(&p->m.info, o->command_line, NULL);
    snprintf(p->m.info.host, sizeof p->m.info.host, "unknown");
}

/* ---- under mpirun or srun ---- */

/* Rank 0: the parts out of the gathered bytes. */
static void gb_fleet_unpack(const struct gb_fleet_loop_opts *o, const struct gb_mpi *w, const char *all,
                            const size_t *lens, struct gb_fleet_part *parts)
{
    size_t off = 0;
    char what[64], why[768];
    for (int r = 0; r < w->size; r++) {
        snprintf(what, sizeof what, "rank %d's records", r);
        if (lens[r] == 0 || gb_fleet_part_from_text(all + off, lens[r], what, &parts[r]) != GB_OK) {
            snprintf(why, sizeof why, "its records did not arrive: %s",
                     lens[r] ? gb_error_message() : "it sent nothing (out of memory, or over 1 GiB)");
            gb_lost_member(o, &parts[r], r, why);
        } else if (parts[r].m.rank != r) {
            snprintf(why, sizeof why, "its records say rank %d", parts[r].m.rank);
            gb_fleet_part_release(&parts[r]);
            gb_lost_member(o, &parts[r], r, why);
        }
        off += lens[r];
    }
}

/* Rank 0 prepares the run directory and tells every rank whether it may go on. */
static int gb_fleet_agree(struct gb_mpi *w, const struct gb_fleet_loop_opts *o)
{
    int rc = w->rank == 0 ? o->prepare(o->ctx) : -1;
    if (gb_mpi_bcast_int(w, &rc) != GB_OK)
        return o->failed(o->ctx, GB_ERR_IO, "fleet", NULL);
    return rc;
}

/* Rank 0: the parts gathered, then finished. */
static int gb_fleet_gathered(const struct gb_fleet_loop_opts *o, const struct gb_mpi *w, const char *all,
                             const size_t *lens, struct gb_fleet_part **parts, int rc)
{
    if (!(*parts = calloc((size_t)w->size, sizeof **parts)))
        return o->failed(o->ctx, gb_error_set(GB_ERR_NOMEM, "out of host memory"), "fleet", NULL);
    gb_fleet_unpack(o, w, all, lens, *parts);
    return o->finish(o->ctx, *parts, (size_t)w->size, rc);
}

enum gb_status gb_fleet_loop_mpi(const struct gb_plan *plan, const struct gb_fleet_loop_opts *o, int *exit_code)
{
    struct gb_mpi w;
    struct gb_fleet_part mine, *parts = NULL;
    char *text = NULL, *all = NULL;
    size_t len = 0, *lens = NULL;
    int rc;
    memset(&mine, 0, sizeof mine);
    enum gb_status st = gb_mpi_open(&w);
    if (st != GB_OK)
        return gb_error_set(GB_ERR_USAGE, "%s", gb_error_message());
    if ((rc = gb_fleet_agree(&w, o)) >= 0)
        goto out;
    int local = gb_fleet_env_local_rank();
    st = gb_member(plan, o, "rank", w.rank, w.size, local >= 0 ? local : w.active ? w.rank : 0, o->device, &mine);
    rc = st == GB_OK ? mine.m.exit_code : o->failed(o->ctx, st, "fleet", NULL);
    if (st != GB_OK || gb_fleet_part_to_text(&mine, &text, &len) != GB_OK)
        len = 0; /* rank 0 records this rank as lost */
    st = gb_mpi_gather(&w, text ? text : "", len, &all, &lens);
    if (st != GB_OK)
        rc = o->failed(o->ctx, st, "gathering the ranks' records", NULL);
    else if (w.rank == 0)
        rc = gb_fleet_gathered(o, &w, all, lens, &parts, rc);
    /* The other ranks wait until rank 0 has written and shown the run:
     * mpirun ends the whole job as soon as one rank exits non-zero. */
    int done = 0;
    gb_mpi_bcast_int(&w, &done);
out:
    for (int r = 0; parts && r < w.size; r++)
        gb_fleet_part_release(&parts[r]);
    free(parts);
    gb_fleet_part_release(&mine);
    free(text);
    free(all);
    free(lens);
    gb_mpi_close(&w);
    *exit_code = rc;
    return GB_OK;
}

/* ---- every GPU of this host ---- */

/* The number of GPUs, asked in a child process so that this one starts
 * no CUDA context before it forks the members. */
static enum gb_status gb_count_in_child(int *count)
{
    int fd[2];
    char buf[1024] = "";
    if (pipe(fd) != 0)
        return gb_error_set(GB_ERR_IO, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        int n = 0;
        enum gb_status st = gb_device_count(&n);
        dprintf(fd[1], "%d %d %s", (int)st, n, st == GB_OK ? "" : gb_error_message());
        _exit(0);
    }
    close(fd[1]);
    ssize_t got = 0, r;
    while (pid > 0 && got < (ssize_t)sizeof buf - 1 && (r = read(fd[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
        got += r;
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    int code = -1, n = 0, off = 0;
    if (pid < 0 || sscanf(buf, "%d %d %n", &code, &n, &off) < 2)
        return gb_error_set(GB_ERR_IO, "could not count the GPUs (fork: %s)", pid < 0 ? strerror(errno) : "no answer");
    *count = n;
    if (code != GB_OK)
        return gb_error_set((enum gb_status)code, "%s", buf + off);
    return n > 0 ? GB_OK : gb_error_set(GB_ERR_NO_GPU, "the driver reports no CUDA device");
}

/* In the child for device `d`: measures, writes the part to `file`, exits. */
static void gb_device_child(const struct gb_plan *plan, const struct gb_fleet_loop_opts *o, int d, int n,
                            const char *file)
{
    struct gb_fleet_part part;
    char *text = NULL;
    size_t len = 0;
    int rc = 1;
    if (gb_member(plan, o, "device", d, n, d, d, &part) == GB_OK) {
        rc = part.m.exit_code;
        if (gb_fleet_part_to_text(&part, &text, &len) != GB_OK || gb_write_file_atomic(file, text, len) != GB_OK)
            rc = o->failed(o->ctx, GB_ERR_IO, "device part", NULL);
        gb_fleet_part_release(&part);
    }
    free(text);
    fflush(NULL);
    _exit(rc);
}

/* Reads the whole file at `path` into *buf (malloc'ed), its length in *len. */
static void gb_slurp(const char *path, char **buf, size_t *len)
{
    size_t cap = 0;
    FILE *f = fopen(path, "r");
    *buf = NULL;
    *len = 0;
    while (f && !ferror(f) && !feof(f)) {
        if (*len + 4096 > cap) {
            char *nb = realloc(*buf, cap * 2 + 8192);
            if (!nb)
                break;
            *buf = nb;
            cap = cap * 2 + 8192;
        }
        *len += fread(*buf + *len, 1, cap - *len, f);
    }
    if (f)
        fclose(f);
}

/* Reads device d's part from `file`, or records why it is missing. */
static void gb_device_part(const struct gb_fleet_loop_opts *o, const char *file, int d, int status,
                           struct gb_fleet_part *p)
{
    char *buf, why[768], what[64];
    size_t len;
    snprintf(what, sizeof what, "device %d's records", d);
    gb_slurp(file, &buf, &len);
    if (buf && len && gb_fleet_part_from_text(buf, len, what, p) == GB_OK && p->m.rank == d) {
        free(buf);
        return;
    }
    if (WIFSIGNALED(status))
        snprintf(why, sizeof why, "its process ended by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(why, sizeof why, "its process exited %d without its records", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    free(buf);
    gb_fleet_part_release(p);
    gb_lost_member(o, p, d, why);
}

/* Forks one member per device, waits for them and reads their parts. */
static enum gb_status gb_run_devices(const struct gb_plan *plan, const struct gb_fleet_loop_opts *o, int n,
                                     const char *tmp, struct gb_fleet_part *parts)
{
    char file[4200];
    pid_t *pids = calloc((size_t)n, sizeof *pids);
    int *status = calloc((size_t)n, sizeof *status);
    if (!pids || !status) {
        free(pids);
        free(status);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    fflush(NULL);
    for (int d = 0; d < n; d++) {
        snprintf(file, sizeof file, "%s/part-%d.json", tmp, d);
        if ((pids[d] = fork()) == 0)
            gb_device_child(plan, o, d, n, file);
    }
    for (int d = 0; d < n; d++) {
        status[d] = -1;
        if (pids[d] > 0)
            while (waitpid(pids[d], &status[d], 0) < 0 && errno == EINTR) {
            }
    }
    for (int d = 0; d < n; d++) {
        snprintf(file, sizeof file, "%s/part-%d.json", tmp, d);
        gb_device_part(o, file, d, status[d], &parts[d]);
        remove(file);
    }
    free(pids);
    free(status);
    return GB_OK;
}

/* The exit code of --all-devices: 0 when every device measured every
 * point, 3 when none had a usable GPU, else 1. */
static int gb_devices_exit(const struct gb_fleet_part *parts, int n)
{
    int no_gpu = 0, bad = 0, none = gb_status_exit_code(GB_ERR_NO_GPU);
    for (int d = 0; d < n; d++) {
        no_gpu += parts[d].m.exit_code == none;
        bad += parts[d].m.exit_code != 0;
    }
    return no_gpu == n ? none : bad ? 1 : 0;
}

enum gb_status gb_fleet_loop_devices(const struct gb_plan *plan, const struct gb_fleet_loop_opts *o,
                                     int *exit_code)
{
    struct gb_fleet_part *parts = NULL;
    char tmp[4096];
    int n = 0, rc;
    enum gb_status st = gb_count_in_child(&n);
    if (st != GB_OK)
        return st;
    if ((*exit_code = o->prepare(o->ctx)) >= 0)
        return GB_OK;
    const char *base = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/gpubound-devices-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmp) || !(parts = calloc((size_t)n, sizeof *parts))) {
        o->unprepare(o->ctx);
        *exit_code = o->failed(o->ctx, gb_error_set(GB_ERR_IO, "cannot make a directory in %s: %s",
                                                    base && *base ? base : "/tmp", strerror(errno)), "fleet", NULL);
        return GB_OK;
    }
    st = gb_run_devices(plan, o, n, tmp, parts);
    rmdir(tmp);
    rc = st != GB_OK ? o->failed(o->ctx, st, "fleet", NULL) : o->finish(o->ctx, parts, (size_t)n, gb_devices_exit(parts, n));
    for (int d = 0; d < n; d++)
        gb_fleet_part_release(&parts[d]);
    free(parts);
    *exit_code = rc;
    return GB_OK;
}
