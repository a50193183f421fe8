/* profile_session.c - points profiled for counters without a run
 * directory (session.h: gb_session_profile), for `gpubound profile` and
 * `gpubound camp detect`. */
#include <stdio.h>
#include <string.h>

#include "gpubound/session.h"

static void gb_profile_record_init(const struct gb_plan_item *it, const struct gb_point *p, struct gb_record *rec)
{
    memset(rec, 0, sizeof *rec);
    snprintf(rec->suite, sizeof rec->suite, "%s", it->suite->name);
    snprintf(rec->bench, sizeof rec->bench, "%s", it->bench->name);
    for (int a = 0; a < p->n_axes; a++)
        gb_record_set_axis(rec, p->axis_name[a], p->axis_str[a]);
}

enum gb_status gb_session_profile(const struct gb_plan *const *plans, size_t n_plans,
                                  const struct gb_session_opts *o,
                                  void (*each)(void *ctx, const struct gb_record *rec), void *ctx)
{
    struct gb_session s;
    struct gb_measure_share share;
    struct gb_measure_opts mo = o->measure;
    enum gb_status st;
    memset(&s, 0, sizeof s);
    memset(&share, 0, sizeof share);
    mo.profile_only = 1;
    mo.share = &share;
    if ((st = gb_session_open(&s, o->device, o->command_line, o->quick)) != GB_OK)
        goto out;
    for (size_t k = 0; k < n_plans && st == GB_OK; k++)
        for (size_t i = 0; i < plans[k]->n && st == GB_OK; i++) {
            struct gb_point p;
            struct gb_record rec;
            gb_plan_point(&plans[k]->items[i], o->quick, &p);
            p.gpu = &s.gpu;
            gb_profile_record_init(&plans[k]->items[i], &p, &rec);
            st = gb_measure_point(&s.gpu, &p, &mo, &rec);
            gb_point_release(&p);
            if (st == GB_OK)
                each(ctx, &rec);
            gb_record_release(&rec);
        }
out:
    gb_measure_share_release(&share);
    gb_session_close(&s);
    return st;
}
