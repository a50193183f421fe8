/* campprof_domain.c - where CampProf's band applies: a configuration too
 * small to load the memory system, or latency-bound, is outside it
 * (include/gpubound/campprof.h, "the domain of validity"). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/campprof.h"

const char *gb_camp_domain_name(enum gb_camp_domain_why why)
{
    switch (why) {
    case GB_CAMP_DOMAIN_IN: return "applies";
    case GB_CAMP_DOMAIN_UNJUDGED: return "not judged";
    case GB_CAMP_DOMAIN_TOO_SMALL: return "too small";
    case GB_CAMP_DOMAIN_LATENCY: return "latency-bound";
    case GB_CAMP_DOMAIN_RANGE: return "outside the model's range";
    }
    return "?";
}

int gb_camp_domain_applies(enum gb_camp_domain_why why)
{
    return why == GB_CAMP_DOMAIN_IN || why == GB_CAMP_DOMAIN_UNJUDGED;
}

/* The fewest active warps per SM any equation of the model measured. */
static double gb_model_warps_min(const struct gb_camp_model *m)
{
    double w = INFINITY;
    for (int op = 0; op < 2; op++)
        for (int p = 0; p < 2; p++)
            if (m->eq[op][p].warps_min > 0)
                w = fmin(w, m->eq[op][p].warps_min);
    return isfinite(w) ? w : 0;
}

/* The knee of the spread equation that times the most of the counts'
 * bytes: the active warps per SM at which the camping suite's spread
 * accesses of that width reach their throughput; 0 where the model's form
 * has none. */
static double gb_spread_knee(const struct gb_camp_model *m, const struct gb_camp_counts *c)
{
    double most = 0, knee = 0;
    for (int op = 0; op < 2; op++) {
        const struct gb_camp_equation *eq = &m->eq[op][GB_CAMP_SPREAD];
        for (int k = 0; k < GB_CAMP_N_WIDTHS && gb_camp_form_lt(eq->form); k++) {
            double n = op == GB_CAMP_READ ? c->ld[k] : c->st[k];
            double bytes = n * gb_camp_class_width(k);
            int cls = gb_camp_eq_class_for(eq, k);
            double kv = cls >= 0 ? gb_camp_eq_lt_term(eq, "knee", cls) : NAN;
            if (bytes > most && kv > 0) {
                most = bytes;
                knee = kv;
            }
        }
    }
    return knee;
}

void gb_camp_domain_judge(const struct gb_camp_model *m, const struct gb_ceilings *c, int sm_count,
                          const struct gb_camp_obs *o, struct gb_camp_domain *out)
{
    memset(out, 0, sizeof *out);
    out->roof_ns = out->share = NAN;
    if (m && !gb_camp_in_range(m, &o->counts, o->warps)) {
        out->why = GB_CAMP_DOMAIN_RANGE;
        snprintf(out->reason, sizeof out->reason, "outside the model's range: its %s form's bounds are "
                 "<= 0 at %.3g achieved warps per SM, fewer than its linear fit can describe",
                 gb_camp_form_name(m->form), o->warps);
        return;
    }
    double dram = c ? c->value[GB_ROOF_DRAM] : NAN;
    if (!(o->bytes > 0) || !(dram > 0) || !(o->time_ns > 0)) {
        out->why = GB_CAMP_DOMAIN_UNJUDGED;
        return;
    }
    out->roof_ns = o->bytes / dram; /* bytes over GB/s: ns */
    out->share = out->roof_ns / o->time_ns;
    double launch = c->launch_a_ns;
    if (launch > 0 && out->roof_ns < launch) {
        out->why = GB_CAMP_DOMAIN_TOO_SMALL;
        snprintf(out->reason, sizeof out->reason, "too small to load the memory system: its %.4g "
                 "bytes take %.3g ns at the DRAM roof (%.4g GB/s), less than a launch's fixed cost "
                 "(%.3g ns)", o->bytes, out->roof_ns, dram, launch);
        return;
    }
    double knee = m ? gb_spread_knee(m, &o->counts) : 0;
    double wmin = knee > 0 ? knee : m ? gb_model_warps_min(m) : 0;
    int idle = sm_count > 0 && o->grid_blocks >= 1 && o->grid_blocks < sm_count;
    if (out->share < GB_CAMP_DOMAIN_MIN_SHARE && (idle || o->warps < wmin)) {
        char few[128];
        if (knee > 0)
            snprintf(few, sizeof few, "fewer warps than the %.3g at which the camping suite's "
                     "spread accesses reach their throughput", knee);
        else
            snprintf(few, sizeof few, "fewer warps than the camping suite measured");
        char grid[64] = "";
        if (o->grid_blocks >= 1)  /* unknown with --warps alone */
            snprintf(grid, sizeof grid, " (grid %.0f blocks on %d SMs)", o->grid_blocks, sm_count);
        out->why = GB_CAMP_DOMAIN_LATENCY;
        snprintf(out->reason, sizeof out->reason, "latency-bound: %.3g achieved warps per SM%s "
                 "reach %.1f%% of the DRAM roof; %s", o->warps, grid, 100 * out->share,
                 idle ? "the grid leaves SMs without a block" : few);
        return;
    }
    out->why = GB_CAMP_DOMAIN_IN;
}
