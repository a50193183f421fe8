/* session_resume.c - reopening a run directory that a kernel fault cut
 * short, so that a new process goes on with it (session_loop.h). */
#include <stdio.h>
#include <string.h>

#include "measure/session_loop.h"

/* Whether `run` is the run that rz continues, for `plan`; GB_ERR_USAGE
 * with the reason when not. */
static enum gb_status gb_resume_check(const char *dir, const struct gb_run *run, const struct gb_session_resume *rz,
                                      const struct gb_plan *plan)
{
    if (strcmp(run->info.started_utc, rz->started_utc) != 0)
        return gb_error_set(GB_ERR_USAGE, "%s holds the run started at %s, not the one started at %s that is resumed",
                            dir, run->info.started_utc[0] ? run->info.started_utc : "(none)", rz->started_utc);
    if (run->info.complete)
        return gb_error_set(GB_ERR_USAGE, "%s holds a complete run: there is nothing to resume", dir);
    if (rz->next == 0 || rz->next >= plan->n || run->n_records != rz->next || run->truncated)
        return gb_error_set(GB_ERR_USAGE, "%s holds %zu record(s)%s; going on from point %zu of %zu needs %zu", dir,
                            run->n_records, run->truncated ? " (cut mid-write)" : "", rz->next + 1, plan->n,
                            rz->next);
    for (size_t i = 0; i < rz->next; i++) {
        const struct gb_record *r = &run->records[i];
        const struct gb_plan_item *it = &plan->items[i];
        if (strcmp(r->suite, it->suite->name) != 0 || strcmp(r->bench, it->bench->name) != 0)
            return gb_error_set(GB_ERR_USAGE, "%s: record %zu is %s/%s, the plan's point %zu is %s/%s", dir, i + 1,
                                r->suite, r->bench, i + 1, it->suite->name, it->bench->name);
    }
    return GB_OK;
}

/* Takes over what the earlier processes of the run measured and spent. */
static void gb_resume_info(const struct gb_run_info *was, const struct gb_session_resume *rz,
                           struct gb_run_info *info, struct gb_run_info *prior)
{
    memcpy(info->started_utc, was->started_utc, sizeof info->started_utc);
    info->restarts_after_fault = rz->restarts;
    info->timed_s = was->timed_s;
    info->parts = was->parts;
    info->write_s = was->write_s;
    info->points_ok = info->points_failed = 0;
    info->incomplete_reason[0] = '\0';
    memset(prior, 0, sizeof *prior);
    prior->modules_compiled = was->modules_compiled;
    prior->modules_cached = was->modules_cached;
    prior->compile_cpu_s = was->compile_cpu_s;
    prior->compile_wait_s = was->compile_wait_s;
}

enum gb_status gb_session_resume_open(const char *dir, const struct gb_session_resume *rz, const struct gb_plan *plan,
                                      struct gb_run_info *info, struct gb_run_info *prior, struct gb_run_writer **w)
{
    struct gb_run *run = NULL;
    enum gb_status st;
    *w = NULL;
    if ((st = gb_run_load(dir, &run)) != GB_OK) {
        st = gb_error_set(st, "reopening the run to go on after a fault: %s", gb_error_message());
        goto out;
    }
    if ((st = gb_resume_check(dir, run, rz, plan)) != GB_OK)
        goto out;
    gb_resume_info(&run->info, rz, info, prior);
    /* The records are in memory: the new writer starts the files anew and
     * writes them back, in their order, before any new point. */
    if ((st = gb_run_writer_open(dir, info, plan->axes, plan->n_axes, w)) != GB_OK)
        goto out;
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const struct gb_record *r = &run->records[i];
        if ((st = gb_run_writer_add(*w, r)) != GB_OK)
            break;
        if (r->status == GB_REC_OK)
            info->points_ok++;
        else if (r->status != GB_REC_SKIPPED)
            info->points_failed++;
    }
out:
    if (st != GB_OK && *w) {
        gb_run_writer_close(*w, info);
        *w = NULL;
    }
    gb_run_free(run);
    return st;
}
