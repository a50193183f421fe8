/* campprof_roofs.c - CampProf's best bound from the memory levels' measured
 * roofs: a configuration's bytes at each level (the profiler's counters)
 * over that level's roof (a ceilings run), the largest of them
 * (include/gpubound/campprof.h, gb_camp_roof_best). */
#include <math.h>
#include <string.h>

#include "gpubound/campprof.h"

/* The least DRAM traffic of a timed sample, bytes, from the counters'
 * read and write bytes: the counters' replay starts from an empty L2, so
 * they count every byte from DRAM; in a hot run up to the L2's capacity of
 * each direction can be spared (reads of what the sample before left in
 * L2, writes still in L2 when it ends), so each direction less that, at
 * least 0. NAN where a direction is unknown. */
static double gb_hot_dram_bytes(double read_bytes, double write_bytes, int hot, double l2_bytes)
{
    if (!(read_bytes >= 0) || !(write_bytes >= 0))
        return NAN;
    if (!hot || !(l2_bytes > 0))
        return read_bytes + write_bytes;
    return fmax(0.0, read_bytes - l2_bytes) + fmax(0.0, write_bytes - l2_bytes);
}

void gb_camp_roof_best(const struct gb_ceilings *c, const struct gb_camp_obs *o,
                       struct gb_camp_roof_bound *out)
{
    out->dram_ns = out->l2_ns = NAN;
    out->best_ns = 0;
    out->level = "";
    if (!c)
        return;
    double dram = c->value[GB_ROOF_DRAM], l2 = c->value[GB_ROOF_L2];
    double rw = gb_hot_dram_bytes(o->dram_read_bytes, o->dram_write_bytes, o->hot,
                                  (double)c->device.l2_bytes);
    if (dram > 0 && rw >= 0)
        out->dram_ns = rw / dram; /* bytes over GB/s: ns */
    if (l2 > 0 && o->l2_read_bytes >= 0 && o->l2_write_bytes >= 0)
        out->l2_ns = fmax(o->l2_read_bytes, o->l2_write_bytes) / l2;
    if (out->dram_ns > 0 && !(out->l2_ns > out->dram_ns)) {
        out->best_ns = out->dram_ns;
        out->level = "DRAM";
    } else if (out->l2_ns > 0) {
        out->best_ns = out->l2_ns;
        out->level = "L2";
    }
}

enum gb_status gb_camp_obs_bounds(const struct gb_camp_model *m, const struct gb_camp_obs *o,
                                  double *best_ns, double *worst_ns)
{
    enum gb_status st = gb_camp_bounds(m, &o->counts, o->warps, best_ns, worst_ns);
    if (st == GB_OK && o->roof_best_ns > 0 && !isnan(*best_ns)) {
        *best_ns = o->roof_best_ns;
        *worst_ns = fmax(*worst_ns, *best_ns);
    }
    return st;
}

double gb_camp_kernel_knee(const struct gb_camp_model *m, const struct gb_camp_obs *o)
{
    if (!m || !(m->inflight_product > 0) || !(o->inflight_bytes > 0))
        return NAN;
    return m->inflight_product / o->inflight_bytes;
}

double gb_camp_line_factor(const struct gb_camp_model *m, const struct gb_camp_obs *o)
{
    double at = 0, flat = 0;
    if (!m || !(o->roof_best_ns > 0) || !(o->warps > 0))
        return 1;
    double own = gb_camp_kernel_knee(m, o);
    if (own > 0)
        return gb_camp_form_h(GB_CAMP_FORM_SMAX2, o->warps / own) * own / o->warps;
    for (int op = 0; op < 2; op++) {
        const struct gb_camp_equation *eq = &m->eq[op][GB_CAMP_SPREAD];
        for (int k = 0; k < GB_CAMP_N_WIDTHS && gb_camp_form_lt(eq->form); k++) {
            double n = op == GB_CAMP_READ ? o->counts.ld[k] : o->counts.st[k];
            int cls = n > 0 ? gb_camp_eq_class_for(eq, k) : -1;
            double knee = cls >= 0 ? gb_camp_eq_lt_term(eq, "knee", cls) : NAN;
            if (!(knee > 0) || !(eq->instr_per_warp[cls] > 0))
                continue;
            double per = n / eq->instr_per_warp[cls];   /* warp instructions of this width */
            at += per * gb_camp_eq_time_ns(eq, o->warps, cls) / o->warps;
            flat += per * gb_camp_eq_lt_term(eq, "L", cls) / knee;
        }
    }
    return flat > 0 && at > flat ? at / flat : 1;
}

double gb_camp_line_degree(double best_ns, double worst_ns, double t_ns, double f)
{
    return gb_camp_degree(best_ns, worst_ns, t_ns / f);
}

double gb_camp_line_time(double best_ns, double worst_ns, double degree, double f)
{
    return f * gb_camp_extrapolate(best_ns, worst_ns, degree);
}

void gb_camp_app_roofs(const struct gb_ceilings *c, struct gb_camp_app *app)
{
    for (size_t i = 0; i < app->n; i++) {
        struct gb_camp_roof_bound b;
        gb_camp_roof_best(c, &app->obs[i], &b);
        app->obs[i].roof_best_ns = b.best_ns;
    }
}
