/* cmd_fleet_run.c - `gpubound run --fleet` (one rank per GPU under mpirun
 * or srun) and `gpubound run --all-devices` (one process per local GPU):
 * every member measures the plan, the first gathers every record into one
 * run directory (docs/fleet.md). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cmd_fleet.h"
#include "cli/run_charts.h"
#include "gpubound/fleet_records.h"
#include "gpubound/fleet_run.h"
#include "gpubound/gpu.h"
#include "util/fs.h"
#include "util/stage.h"

static void gb_fleet_signal(int sig)
{
    (void)sig;
    gb_measure_interrupted = 1;
}

/* ---- progress ---- */

struct gb_fleet_progress {
    int member, size, verbose;
    const char *what;            /* "rank" or "device" */
};

static enum gb_status gb_fleet_started(void *ctx, const struct gb_run_info *info, size_t n_points)
{
    const struct gb_fleet_progress *pr = ctx;
    fprintf(stderr, "gpubound: %s %d of %d on %s: %s (%s, %s), %zu point(s)\n", pr->what, pr->member, pr->size,
            info->host, info->device.name, info->device.uuid, info->device.pci_bus_id, n_points);
    return GB_OK;
}

static void gb_fleet_point(void *ctx, size_t done, size_t total, const struct gb_plan_item *it,
                           const struct gb_record *r)
{
    const struct gb_fleet_progress *pr = ctx;
    char label[256];
    if (!pr->verbose || !r)
        return;
    int len = snprintf(label, sizeof label, "%s/%s", it->suite->name, it->bench->name);
    for (int a = 0; a < it->n_axes && len > 0 && (size_t)len < sizeof label; a++)
        len += snprintf(label + len, sizeof label - (size_t)len, " %s=%s", it->axis_name[a], it->axis_value[a]);
    if (r->status == GB_REC_OK)
        fprintf(stderr, "[%s %d] [%zu/%zu] %s: %.4g us\n", pr->what, pr->member, done, total, label,
                r->time_ns.median / 1e3);
    else
        fprintf(stderr, "[%s %d] [%zu/%zu] %s: %s: %s\n", pr->what, pr->member, done, total, label,
                gb_record_status_name(r->status), r->reason);
}

/* ---- one member ---- */

/* A member's exit code, as a single run would have exited. */
static int gb_member_exit(const struct gb_fleet_member *m)
{
    if (m->state == GB_FLEET_NO_GPU)
        return GB_EXIT_NO_GPU;
    if (m->state == GB_FLEET_FAILED)
        return GB_EXIT_FAIL;
    return m->info.points_failed ? GB_EXIT_FAIL : GB_EXIT_OK;
}

/* Measures the plan as member `member` of `size` and fills `part`; says on
 * stderr how it ended when not well. Returns the part's status. */
static enum gb_status gb_fleet_member(const struct gb_plan *plan, const struct gb_fleet_run_args *a,
                                      const char *what, int member, int size, int local, int device,
                                      struct gb_fleet_part *part)
{
    struct gb_fleet_progress pr = {.member = member, .size = size, .verbose = member == 0, .what = what};
    struct gb_session_hooks hooks = {.started = gb_fleet_started, .point = gb_fleet_point, .ctx = &pr};
    struct gb_fleet_member_opts o = {.rank = member, .local_rank = local, .device = device,
                                     .command_line = gb_cli_command_line(), .quick = a->quick,
                                     .measure = a->mo, .hooks = &hooks};
    enum gb_status st = gb_fleet_member_run(plan, &o, part);
    if (st != GB_OK)
        return st;
    part->m.exit_code = gb_member_exit(&part->m);
    if (part->m.state != GB_FLEET_OK)
        fprintf(stderr, "gpubound: %s %d on %s: %s: %s\n", what, member, part->m.host,
                gb_fleet_state_name(part->m.state), part->m.reason);
    else if (part->m.info.points_failed)
        fprintf(stderr, "gpubound: %s %d on %s: %d point(s) failed\n", what, member, part->m.host,
                part->m.info.points_failed);
    return GB_OK;
}

/* A member whose part did not arrive: recorded as failed, with why. */
static void gb_lost_member(struct gb_fleet_part *p, int rank, const char *why)
{
    memset(p, 0, sizeof *p);
    p->m.rank = rank;
    p->m.local_rank = -1;
    snprintf(p->m.host, sizeof p->m.host, "unknown");
    p->m.state = GB_FLEET_FAILED;
    p->m.exit_code = GB_EXIT_FAIL;
    snprintf(p->m.reason, sizeof p->m.reason, "%s", why);
    gb_run_info_init(&p->m.info, gb_cli_command_line(), NULL);
    snprintf(p->m.info.host, sizeof p->m.info.host, "unknown");
}

/* ---- the gathered run ---- */

struct gb_out {
    char path[4200];
    char made[GB_PATH_MAX];
};

/* The run directory: --out, else runs/<UTC time>; made and checked empty.
 * Returns -1 when ready, else the exit code. */
static int gb_fleet_out(const struct gb_fleet_run_args *a, struct gb_out *o)
{
    char ts[32];
    o->made[0] = '\0';
    if (a->out) {
        snprintf(o->path, sizeof o->path, "%s", a->out);
    } else {
        gb_utc_now(ts, sizeof ts);
        snprintf(o->path, sizeof o->path, "runs/%.4s%.2s%.2sT%.2s%.2s%.2sZ", ts, ts + 5, ts + 8, ts + 11,
                 ts + 14, ts + 17);
    }
    if ((!gb_is_dir(o->path) && gb_stage_mkdir(o->path, o->made, sizeof o->made) != GB_OK) ||
        gb_run_dir_prepare(o->path) != GB_OK) {
        int rc = gb_cli_usage("run", "--out refused: %s", gb_error_message());
        gb_stage_unmake(o->path, o->made);
        return rc;
    }
    return -1;
}

static enum gb_status gb_save_charts(void *ctx, const char *staging)
{
    return gb_cli_save_charts(staging, ctx);
}

/* Writes the gathered run and prints its fleet report; the exit code of
 * the gathering member (its own, unless writing failed). */
static int gb_fleet_finish(const struct gb_plan *plan, const struct gb_fleet_run_args *a, struct gb_out *o,
                           struct gb_fleet_part *parts, size_t n, int own_rc)
{
    char chart_dir[4300];
    struct gb_fleet_write_opts wo = {.command_line = gb_cli_command_line(), .mode = a->quick ? "quick" : "full",
                                     .axes = plan->axes, .n_axes = plan->n_axes, .extra = gb_save_charts,
                                     .ctx = (void *)plan};
    enum gb_status st = gb_fleet_write(o->path, parts, n, &wo);
    if (st != GB_OK) {
        gb_stage_unmake(o->path, o->made);
        return gb_cli_fail(st, "writing the fleet run", NULL);
    }
    snprintf(chart_dir, sizeof chart_dir, "%s/report", o->path);
    int rc = gb_fleet_print(o->path, a->fmt, a->report ? chart_dir : NULL);
    fprintf(stderr, "run: %s (%zu member(s) gathered; 'gpubound fleet %s' shows it again)\n", o->path, n,
            o->path);
    return own_rc != GB_EXIT_OK ? own_rc : rc != GB_EXIT_OK ? GB_EXIT_FAIL : GB_EXIT_OK;
}

/* ---- under mpirun or srun ---- */

/* Rank 0: the parts out of the gathered bytes. */
static int gb_fleet_unpack(const struct gb_mpi *w, const char *all, const size_t *lens,
                           struct gb_fleet_part *parts)
{
    size_t off = 0;
    char what[64], why[768];
    for (int r = 0; r < w->size; r++) {
        snprintf(what, sizeof what, "rank %d's records", r);
        if (lens[r] == 0 || gb_fleet_part_from_text(all + off, lens[r], what, &parts[r]) != GB_OK) {
            snprintf(why, sizeof why, "its records did not arrive: %s",
                     lens[r] ? gb_error_message() : "it sent nothing (out of memory, or over 1 GiB)");
            gb_lost_member(&parts[r], r, why);
        } else if (parts[r].m.rank != r) {
            snprintf(why, sizeof why, "its records say rank %d", parts[r].m.rank);
            gb_fleet_part_release(&parts[r]);
            gb_lost_member(&parts[r], r, why);
        }
        off += lens[r];
    }
    return 0;
}

/* Rank 0 makes the run directory and tells every rank whether it may go on. */
static int gb_fleet_agree_out(struct gb_mpi *w, const struct gb_fleet_run_args *a, struct gb_out *o)
{
    int rc = w->rank == 0 ? gb_fleet_out(a, o) : -1;
    if (gb_mpi_bcast_int(w, &rc) != GB_OK)
        return gb_cli_fail(GB_ERR_IO, "fleet", NULL);
    return rc;
}

static int gb_run_mpi(const struct gb_plan *plan, const struct gb_fleet_run_args *a)
{
    struct gb_mpi w;
    struct gb_out o;
    struct gb_fleet_part mine, *parts = NULL;
    char *text = NULL, *all = NULL;
    size_t len = 0, *lens = NULL;
    int rc;
    memset(&mine, 0, sizeof mine);
    enum gb_status st = gb_mpi_open(&w);
    if (st != GB_OK)
        return gb_cli_usage("run", "--fleet: %s", gb_error_message());
    if ((rc = gb_fleet_agree_out(&w, a, &o)) >= 0)
        goto out;
    int local = gb_fleet_env_local_rank();
    st = gb_fleet_member(plan, a, "rank", w.rank, w.size, local >= 0 ? local : w.active ? w.rank : 0, a->device,
                         &mine);
    rc = st == GB_OK ? mine.m.exit_code : gb_cli_fail(st, "fleet", NULL);
    if (st != GB_OK || gb_fleet_part_to_text(&mine, &text, &len) != GB_OK)
        len = 0; /* rank 0 records this rank as lost */
    st = gb_mpi_gather(&w, text ? text : "", len, &all, &lens);
    if (st != GB_OK) {
        rc = gb_cli_fail(st, "gathering the ranks' records", NULL);
    } else if (w.rank == 0) {
        if (!(parts = calloc((size_t)w.size, sizeof *parts)))
            rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "fleet", NULL);
        else {
            gb_fleet_unpack(&w, all, lens, parts);
            rc = gb_fleet_finish(plan, a, &o, parts, (size_t)w.size, rc);
        }
    }
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
    return rc;
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
static void gb_device_child(const struct gb_plan *plan, const struct gb_fleet_run_args *a, int d, int n,
                            const char *file)
{
    struct gb_fleet_part part;
    char *text = NULL;
    size_t len = 0;
    int rc = GB_EXIT_FAIL;
    if (gb_fleet_member(plan, a, "device", d, n, d, d, &part) == GB_OK) {
        rc = part.m.exit_code;
        if (gb_fleet_part_to_text(&part, &text, &len) != GB_OK || gb_write_file_atomic(file, text, len) != GB_OK)
            rc = gb_cli_fail(GB_ERR_IO, "device part", NULL);
        gb_fleet_part_release(&part);
    }
    free(text);
    fflush(NULL);
    _exit(rc);
}

/* Reads device d's part from `file`, or records why it is missing. */
static void gb_device_part(const char *file, int d, int status, struct gb_fleet_part *p)
{
    char *buf = NULL, why[768], what[64];
    size_t len = 0, cap = 0;
    FILE *f = fopen(file, "r");
    snprintf(what, sizeof what, "device %d's records", d);
    while (f && !ferror(f) && !feof(f)) {
        if (len + 4096 > cap) {
            char *nb = realloc(buf, cap * 2 + 8192);
            if (!nb)
                break;
            buf = nb;
            cap = cap * 2 + 8192;
        }
        len += fread(buf + len, 1, cap - len, f);
    }
    if (f)
        fclose(f);
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
    gb_lost_member(p, d, why);
}

/* Forks one member per device, waits for them and reads their parts. */
static enum gb_status gb_run_devices(const struct gb_plan *plan, const struct gb_fleet_run_args *a, int n,
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
            gb_device_child(plan, a, d, n, file);
    }
    for (int d = 0; d < n; d++) {
        status[d] = -1;
        if (pids[d] > 0)
            while (waitpid(pids[d], &status[d], 0) < 0 && errno == EINTR) {
            }
    }
    for (int d = 0; d < n; d++) {
        snprintf(file, sizeof file, "%s/part-%d.json", tmp, d);
        gb_device_part(file, d, status[d], &parts[d]);
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
    int no_gpu = 0, bad = 0;
    for (int d = 0; d < n; d++) {
        no_gpu += parts[d].m.exit_code == GB_EXIT_NO_GPU;
        bad += parts[d].m.exit_code != GB_EXIT_OK;
    }
    return no_gpu == n ? GB_EXIT_NO_GPU : bad ? GB_EXIT_FAIL : GB_EXIT_OK;
}

static int gb_run_all_devices(const struct gb_plan *plan, const struct gb_fleet_run_args *a)
{
    struct gb_out o;
    struct gb_fleet_part *parts = NULL;
    char tmp[4096];
    int n = 0, rc;
    enum gb_status st = gb_count_in_child(&n);
    if (st != GB_OK)
        return gb_cli_fail(st, NULL, st == GB_ERR_NO_GPU ? "gpubound run needs an NVIDIA GPU (compute capability "
                                                           "7.0+) and its driver" : NULL);
    if ((rc = gb_fleet_out(a, &o)) >= 0)
        return rc;
    const char *base = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/gpubound-devices-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmp) || !(parts = calloc((size_t)n, sizeof *parts))) {
        gb_stage_unmake(o.path, o.made);
        return gb_cli_fail(gb_error_set(GB_ERR_IO, "cannot make a directory in %s: %s",
                                        base && *base ? base : "/tmp", strerror(errno)), "fleet", NULL);
    }
    st = gb_run_devices(plan, a, n, tmp, parts);
    rmdir(tmp);
    rc = st != GB_OK ? gb_cli_fail(st, "fleet", NULL)
                     : gb_fleet_finish(plan, a, &o, parts, (size_t)n, gb_devices_exit(parts, n));
    for (int d = 0; d < n; d++)
        gb_fleet_part_release(&parts[d]);
    free(parts);
    return rc;
}

int gb_cmd_run_fleet(const struct gb_plan *plan, const struct gb_fleet_run_args *a)
{
    signal(SIGINT, gb_fleet_signal);
    signal(SIGTERM, gb_fleet_signal);
    return a->all_devices ? gb_run_all_devices(plan, a) : gb_run_mpi(plan, a);
}
