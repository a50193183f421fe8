/* fleet_run.c - one fleet member measures the plan on its GPU
 * (gpubound/fleet_run.h, gb_fleet_member_run). */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpubound/fleet_run.h"
#include "gpubound/gpu.h"

static int gb_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Removes the member's private directory and everything in it. */
static void gb_rm_tree(const char *dir)
{
    if (dir[0])
        nftw(dir, gb_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The GPU this member takes: the one asked for, else its local rank
 * modulo the GPUs of the host (ranks beyond the GPUs share them). */
static enum gb_status gb_member_device(const struct gb_fleet_member_opts *o, int *ordinal)
{
    int count = 0;
    if (o->device >= 0) {
        *ordinal = o->device;
        return GB_OK;
    }
    enum gb_status st = gb_device_count(&count);
    if (st != GB_OK)
        return st;
    if (count <= 0)
        return gb_error_set(GB_ERR_NO_GPU, "the driver reports no CUDA device");
    *ordinal = (o->local_rank > 0 ? o->local_rank : 0) % count;
    return GB_OK;
}

/* The state and reason of a session that did not return GB_OK. */
static void gb_member_stopped(struct gb_fleet_member *m, enum gb_status st, const struct gb_session_result *res)
{
    if (res->stage == GB_SESSION_DEVICE) {
        m->state = st == GB_ERR_NO_GPU ? GB_FLEET_NO_GPU : GB_FLEET_FAILED;
        snprintf(m->reason, sizeof m->reason, "%s", gb_error_message());
        return;
    }
    m->state = GB_FLEET_FAILED;
    snprintf(m->reason, sizeof m->reason, "%s: %s",
             res->stage == GB_SESSION_MEASURE ? (st == GB_ERR_INTERRUPTED ? "interrupted" : "the device failed")
                                              : "writing its records failed",
             gb_error_message());
}

/* Reads the member's run back and moves its records into the part. */
static enum gb_status gb_member_records(const char *run_dir, struct gb_fleet_part *out)
{
    struct gb_run *run = NULL;
    enum gb_status st = gb_run_load(run_dir, &run);
    if (st != GB_OK)
        return st;
    out->records = run->records;
    out->n_records = run->n_records;
    run->records = NULL;
    run->n_records = 0;
    gb_run_free(run);
    return GB_OK;
}

/* The member's session in `dir`. */
static void gb_member_session(const struct gb_plan *plan, const struct gb_fleet_member_opts *o, int ordinal,
                              const char *dir, struct gb_fleet_part *out)
{
    struct gb_fleet_member *m = &out->m;
    struct gb_session_opts so = {.device = ordinal, .out_dir = dir, .command_line = o->command_line,
                                 .quick = o->quick, .measure = o->measure};
    struct gb_session_result res;
    enum gb_status st = gb_run_dir_prepare(dir);
    if (st != GB_OK) {
        m->state = GB_FLEET_FAILED;
        snprintf(m->reason, sizeof m->reason, "%s", gb_error_message());
        return;
    }
    st = gb_session_run(plan, &so, o->hooks, &res);
    if (st != GB_OK)
        gb_member_stopped(m, st, &res);
    if (st == GB_OK || res.stage != GB_SESSION_DEVICE) {
        m->info = res.info;
        if ((st = gb_member_records(dir, out)) != GB_OK && m->state == GB_FLEET_OK) {
            m->state = GB_FLEET_FAILED;
            snprintf(m->reason, sizeof m->reason, "reading its records back: %s", gb_error_message());
        }
    }
}

enum gb_status gb_fleet_member_run(const struct gb_plan *plan, const struct gb_fleet_member_opts *o,
                                   struct gb_fleet_part *out)
{
    struct gb_fleet_member *m = &out->m;
    char tmp[4096], dir[4200];
    int ordinal = 0;
    memset(out, 0, sizeof *out);
    m->rank = o->rank;
    m->local_rank = o->local_rank;
    gb_run_info_init(&m->info, o->command_line, NULL);
    snprintf(m->info.mode, sizeof m->info.mode, "%s", o->quick ? "quick" : "full");
    snprintf(m->host, sizeof m->host, "%s", m->info.host);
    enum gb_status st = gb_member_device(o, &ordinal);
    if (st != GB_OK) {
        m->state = st == GB_ERR_NO_GPU ? GB_FLEET_NO_GPU : GB_FLEET_FAILED;
        snprintf(m->reason, sizeof m->reason, "%s", gb_error_message());
        gb_utc_now(m->info.finished_utc, sizeof m->info.finished_utc);
        return GB_OK;
    }
    const char *base = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/gpubound-fleet-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmp))
        return gb_error_set(GB_ERR_IO, "cannot make a private directory for rank %d's records in %s",
                            o->rank, base && *base ? base : "/tmp");
    snprintf(dir, sizeof dir, "%s/run", tmp);
    gb_member_session(plan, o, ordinal, dir, out);
    gb_rm_tree(tmp);
    return GB_OK;
}
