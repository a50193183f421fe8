/* cmd_fleet_run.c - `gpubound run --fleet` (one rank per GPU under mpirun
 * or srun) and `gpubound run --all-devices` (one process per local GPU):
 * every member measures the plan, the first gathers every record into one
 * run directory (docs/fleet.md). The loop is the library's
 * (src/measure/fleet_loop.c); this file makes the run directory, says
 * what the members do, writes the gathered run and shows it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_fleet.h"
#include "cli/run_charts.h"
#include "gpubound/fleet.h"
#include "gpubound/fleet_loop.h"
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

struct gb_fleet_cli {
    const struct gb_plan *plan;
    const struct gb_fleet_run_args *a;
    char path[4200];             /* the run directory */
    char made[GB_PATH_MAX];      /* the top directory made for it ("" none) */
};

/* ---- what the members do ---- */

static enum gb_status gb_fleet_started(void *ctx, const struct gb_fleet_who *who, const struct gb_run_info *info,
                                       size_t n_points)
{
    (void)ctx;
    fprintf(stderr, "gpubound: %s %d of %d on %s: %s (%s, %s), %zu point(s)\n", who->what, who->member, who->size,
            info->host, info->device.name, info->device.uuid, info->device.pci_bus_id, n_points);
    return GB_OK;
}

/* Each point of the first member, when it is measured. */
static void gb_fleet_point(void *ctx, const struct gb_fleet_who *who, size_t done, size_t total,
                           const struct gb_plan_item *it, const struct gb_record *r)
{
    char label[256];
    (void)ctx;
    if (who->member != 0 || !r)
        return;
    int len = snprintf(label, sizeof label, "%s/%s", it->suite->name, it->bench->name);
    for (int a = 0; a < it->n_axes && len > 0 && (size_t)len < sizeof label; a++)
        len += snprintf(label + len, sizeof label - (size_t)len, " %s=%s", it->axis_name[a], it->axis_value[a]);
    if (r->status == GB_REC_OK)
        fprintf(stderr, "[%s %d] [%zu/%zu] %s: %.4g us\n", who->what, who->member, done, total, label,
                r->time_ns.median / 1e3);
    else
        fprintf(stderr, "[%s %d] [%zu/%zu] %s: %s: %s\n", who->what, who->member, done, total, label,
                gb_record_status_name(r->status), r->reason);
}

/* How a member ended, when not well. */
static void gb_fleet_ended(void *ctx, const struct gb_fleet_who *who, const struct gb_fleet_part *part)
{
    (void)ctx;
    if (part->m.state != GB_FLEET_OK)
        fprintf(stderr, "gpubound: %s %d on %s: %s: %s\n", who->what, who->member, part->m.host,
                gb_fleet_state_name(part->m.state), part->m.reason);
    else if (part->m.info.points_failed)
        fprintf(stderr, "gpubound: %s %d on %s: %d point(s) failed\n", who->what, who->member, part->m.host,
                part->m.info.points_failed);
}

static int gb_fleet_failed(void *ctx, enum gb_status st, const char *what, const char *todo)
{
    (void)ctx;
    return gb_cli_fail(st, what, todo);
}

/* ---- the gathered run ---- */

/* The run directory: --out, else runs/<UTC time>; made and checked empty.
 * Returns -1 when ready, else the exit code. */
static int gb_fleet_out(void *ctx)
{
    struct gb_fleet_cli *c = ctx;
    char ts[32];
    c->made[0] = '\0';
    if (c->a->out) {
        snprintf(c->path, sizeof c->path, "%s", c->a->out);
    } else {
        gb_utc_now(ts, sizeof ts);
        snprintf(c->path, sizeof c->path, "runs/%.4s%.2s%.2sT%.2s%.2s%.2sZ", ts, ts + 5, ts + 8, ts + 11,
                 ts + 14, ts + 17);
    }
    if ((!gb_is_dir(c->path) && gb_stage_mkdir(c->path, c->made, sizeof c->made) != GB_OK) ||
        gb_run_dir_prepare(c->path) != GB_OK) {
        int rc = gb_cli_usage("run", "--out refused: %s", gb_error_message());
        gb_stage_unmake(c->path, c->made);
        return rc;
    }
    return -1;
}

static void gb_fleet_unmake(void *ctx)
{
    struct gb_fleet_cli *c = ctx;
    gb_stage_unmake(c->path, c->made);
}

static enum gb_status gb_save_charts(void *ctx, const char *staging)
{
    return gb_cli_save_charts(staging, ctx);
}

/* Writes the gathered run and prints its fleet report; the exit code of
 * the gathering member (its own, unless writing failed). */
static int gb_fleet_finish(void *ctx, struct gb_fleet_part *parts, size_t n, int own_rc)
{
    struct gb_fleet_cli *c = ctx;
    char chart_dir[4300];
    struct gb_fleet_write_opts wo = {.command_line = gb_cli_command_line(), .mode = c->a->quick ? "quick" : "full",
                                     .axes = c->plan->axes, .n_axes = c->plan->n_axes, .extra = gb_save_charts,
                                     .ctx = (void *)c->plan};
    enum gb_status st = gb_fleet_write(c->path, parts, n, &wo);
    if (st != GB_OK) {
        gb_stage_unmake(c->path, c->made);
        return gb_cli_fail(st, "writing the fleet run", NULL);
    }
    snprintf(chart_dir, sizeof chart_dir, "%s/report", c->path);
    int rc = gb_fleet_print(c->path, c->a->fmt, c->a->report ? chart_dir : NULL);
    fprintf(stderr, "run: %s (%zu member(s) gathered; 'gpubound fleet %s' shows it again)\n", c->path, n,
            c->path);
    return own_rc != GB_EXIT_OK ? own_rc : rc != GB_EXIT_OK ? GB_EXIT_FAIL : GB_EXIT_OK;
}

int gb_cmd_run_fleet(const struct gb_plan *plan, const struct gb_fleet_run_args *a)
{
    struct gb_fleet_cli c = {.plan = plan, .a = a};
    struct gb_fleet_loop_opts o = {.command_line = gb_cli_command_line(), .quick = a->quick, .device = a->device,
                                   .measure = a->mo, .started = gb_fleet_started, .point = gb_fleet_point,
                                   .ended = gb_fleet_ended, .failed = gb_fleet_failed, .prepare = gb_fleet_out,
                                   .unprepare = gb_fleet_unmake, .finish = gb_fleet_finish, .ctx = &c};
    int rc = GB_EXIT_FAIL;
    signal(SIGINT, gb_fleet_signal);
    signal(SIGTERM, gb_fleet_signal);
    enum gb_status st = a->all_devices ? gb_fleet_loop_devices(plan, &o, &rc) : gb_fleet_loop_mpi(plan, &o, &rc);
    if (st != GB_OK && !a->all_devices)
        return gb_cli_usage("run", "--fleet: %s", gb_error_message());
    if (st != GB_OK)
        return gb_cli_fail(st, NULL, st == GB_ERR_NO_GPU ? "gpubound run needs an NVIDIA GPU (compute capability "
                                                           "7.0+) and its driver" : NULL);
    return rc;
}
