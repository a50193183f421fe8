/* roofline.c - the hierarchical roofline as a reader sees it: its table,
 * its chart (a plot drawn by gnuplot for report.md and by the page for
 * report.html) and the notes on where the roofs and bytes come from. The
 * points are placed by the model (src/models/roofline/); nothing here
 * computes a bound. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report.h"
#include "report_internal.h"

static void rl_cell_num(struct gb_table *t, double v, enum gb_status *st)
{
    if (*st == GB_OK)
        *st = isfinite(v) ? gb_table_cell_num(t, v, 4) : gb_table_cell_empty(t);
}

static void rl_cell_text(struct gb_table *t, const char *s, enum gb_status *st)
{
    if (*st == GB_OK)
        *st = gb_table_cell_text(t, s);
}

/* The flag column: a point above a roof, and whether that roof is its
 * operations' pipe (their pipe may be another: --pipe), or partly in L2. */
static const char *rl_flag(const struct gb_roofline_point *p)
{
    if (p->above)
        return p->binding >= 0 && p->binding == p->pipe ? "above measured roof (another pipe? --pipe)"
                                                        : "above measured roof";
    return p->partly_in_l2 ? "partly in L2" : "";
}

enum gb_status gb_report_roofline_table(const struct gb_roofline *rl, struct gb_table **out)
{
    static const char *const cols[][2] = {
        {"point", NULL},        {"pipe", NULL},          {"time", "ns"},        {"ops", NULL},
        {"dram bytes", NULL},   {"l2 bytes", NULL},      {"l1 bytes", NULL},    {"ai dram", "ops/B"},
        {"ai l2", "ops/B"},     {"ai l1", "ops/B"},      {"achieved", "G/s"},   {"binding", NULL},
        {"fraction", NULL},     {"flag", NULL}};
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    for (size_t i = 0; i < rl->n && st == GB_OK; i++) {
        const struct gb_roofline_point *p = &rl->pts[i];
        st = gb_table_row(t);
        rl_cell_text(t, p->label, &st);
        rl_cell_text(t, p->pipe >= 0 ? gb_roof_info(p->pipe)->name : "", &st);
        rl_cell_num(t, p->time_ns, &st);
        rl_cell_num(t, p->ops, &st);
        for (int l = 0; l < GB_N_LEVELS; l++)
            rl_cell_num(t, p->bytes[l], &st);
        for (int l = 0; l < GB_N_LEVELS; l++)
            rl_cell_num(t, p->intensity[l], &st);
        rl_cell_num(t, p->ops > 0 ? p->achieved : NAN, &st);
        rl_cell_text(t, p->binding >= 0 ? gb_roof_info(p->binding)->name : "", &st);
        rl_cell_num(t, p->fraction, &st);
        rl_cell_text(t, rl_flag(p), &st);
    }
    if (st != GB_OK) {
        gb_table_free(t);
        return st;
    }
    *out = t;
    return GB_OK;
}

static enum gb_status rl_note(struct gb_findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static enum gb_status rl_note(struct gb_findings *f, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return gb_result_add(&f->lines, &f->n, buf);
}

enum gb_status gb_report_roofline_notes(const struct gb_ceilings *c, const struct gb_roofline *rl,
                                        int looked, struct gb_findings *out)
{
    enum gb_status st;
    memset(out, 0, sizeof *out);
    if (c->measured)
        st = rl_note(out, "roofs: measured in %s (the largest rate of each roof's benches)", c->run_dir);
    else
        st = rl_note(out, "roofs: guide figures, not measured (no ceilings run given%s): record one with '%s'",
                     looked ? " or found beside the run" : "", GB_REPORT_CEILINGS_HINT);
    if (st == GB_OK && rl->without_counters)
        st = rl_note(out, "%d points have no counters: placed from the spec's bytes and flops, with the DRAM "
                          "roof only", rl->without_counters);
    if (st == GB_OK && rl->from_counters)
        st = rl_note(out, "bytes per level from counters (DRAM and L2 sectors x 32; L1/shared: global L1 sectors x "
                          "32 + shared wavefronts x 128); operations are the records' flops: the counters carry no "
                          "operation counts by type nor tensor-pipe instructions, so the pipe is FP64 when its pipe "
                          "ran more instructions than the FMA pipe, else FP32 (--pipe sets it)");
    if (st == GB_OK && rl->hot_in_l2)
        st = rl_note(out, "%d points were timed hot (samples back to back) with data that fits in the L2 "
                          "(%.0f MiB): their DRAM bytes are 0, the DRAM roof bounds nothing there (the counters' "
                          "replay starts from an empty L2 and counts every byte from DRAM)", rl->hot_in_l2,
                     rl->l2_bytes / 1048576.0);
    if (st == GB_OK && rl->partly_in_l2)
        st = rl_note(out, "%d points were timed hot and ran faster than the DRAM bytes the counters' replay (from an "
                          "empty L2) counted allow at the DRAM roof: those bytes do not bound a hot launch, which "
                          "finds part of its data in the L2; their DRAM bytes are the least a launch can move, the "
                          "counted bytes (no more than the buffers') less the L2's %.0f MiB (flag 'partly in L2')",
                     rl->partly_in_l2, rl->l2_bytes / 1048576.0);
    if (st == GB_OK && rl->skipped)
        st = rl_note(out, "%d records not ok or without a time are left out", rl->skipped);
    if (st != GB_OK)
        gb_findings_release(out);
    return st;
}

/* The range of intensities drawn and the pipes the points use. */
static int rl_extent(const struct gb_roofline *rl, double *xlo, double *xhi, int used[GB_N_ROOFS])
{
    *xlo = INFINITY;
    *xhi = 0;
    for (size_t i = 0; i < rl->n; i++)
        for (int l = 0; l < GB_N_LEVELS; l++)
            if (isfinite(rl->pts[i].intensity[l]) && rl->pts[i].achieved > 0) {
                *xlo = fmin(*xlo, rl->pts[i].intensity[l]);
                *xhi = fmax(*xhi, rl->pts[i].intensity[l]);
                if (rl->pts[i].pipe >= 0)
                    used[rl->pts[i].pipe] = 1;
            }
    *xlo /= 4;
    *xhi *= 4;
    return *xhi > 0;
}

/* The memory roofs as lines: bandwidth x intensity up to the highest pipe roof. */
static enum gb_status rl_memory_lines(struct gb_plot *p, const struct gb_ceilings *c, double xlo, double xhi,
                                      double top)
{
    enum gb_status st = GB_OK;
    for (int l = 0; l < GB_N_LEVELS && st == GB_OK; l++) {
        double bw = c->value[gb_roof_of_level((enum gb_roof_level)l)];
        char lab[96];
        int s;
        if (!(bw > 0))
            continue;
        snprintf(lab, sizeof lab, "%s roof (%.6g GB/s)", gb_roof_level_name((enum gb_roof_level)l), bw);
        double xk = top > 0 ? fmin(xhi, top / bw) : xhi;
        if ((st = gb_plot_series(p, lab, &s)) || (st = gb_plot_series_style(p, s, GB_PLOT_STYLE_LINES)) ||
            (st = gb_plot_point(p, s, xlo, bw * xlo, NAN, NAN)))
            break;
        if (xk > xlo)
            st = gb_plot_point(p, s, xk, bw * xk, NAN, NAN);
    }
    return st;
}

/* One marker per point and level; a point above a roof is also marked,
 * where it was measured: never moved under the roof. */
static enum gb_status rl_markers(struct gb_plot *p, const struct gb_roofline *rl)
{
    enum gb_status st = GB_OK;
    int lvl[GB_N_LEVELS], above = -1;
    for (int l = 0; l < GB_N_LEVELS && st == GB_OK; l++)
        if ((st = gb_plot_series(p, gb_roof_level_name((enum gb_roof_level)l), &lvl[l])) == GB_OK)
            st = gb_plot_series_style(p, lvl[l], GB_PLOT_STYLE_POINTS);
    for (size_t i = 0; i < rl->n && st == GB_OK; i++)
        for (int l = 0; l < GB_N_LEVELS && st == GB_OK; l++) {
            const struct gb_roofline_point *pt = &rl->pts[i];
            if (!isfinite(pt->intensity[l]) || !(pt->achieved > 0))
                continue;
            st = gb_plot_point(p, lvl[l], pt->intensity[l], pt->achieved, NAN, NAN);
            if (st == GB_OK && pt->above && above < 0 &&
                (st = gb_plot_series(p, "above a measured roof", &above)) == GB_OK)
                st = gb_plot_series_style(p, above, GB_PLOT_STYLE_POINTS);
            if (st == GB_OK && pt->above)
                st = gb_plot_point(p, above, pt->intensity[l], pt->achieved, NAN, NAN);
        }
    return st;
}

enum gb_status gb_report_roofline_plot(const struct gb_ceilings *c, const struct gb_roofline *rl,
                                       struct gb_plot **out)
{
    enum gb_status st = GB_OK;
    double xlo, xhi, top = 0;
    int used[GB_N_ROOFS] = {0};
    struct gb_plot *p;
    *out = NULL;
    if (!rl_extent(rl, &xlo, &xhi, used))
        return gb_error_set(GB_ERR_USAGE, "no point has operations and bytes to draw (every flops is 0)");
    if (!(p = gb_plot_new(GB_CHART_LINE, "roofline", "Hierarchical roofline")))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    gb_plot_log(p, 1, 1);
    if ((st = gb_plot_subtitle(p, c->measured ? "roofs measured by a ceilings run"
                                              : "roofs: guide figures, not measured")) ||
        (st = gb_plot_labels(p, "arithmetic intensity (operations per byte)", "performance (G operations/s)")))
        goto out;
    for (int r = 0; r < GB_N_ROOFS && st == GB_OK; r++)
        if (used[r] && c->value[r] > 0) {
            top = fmax(top, c->value[r]);
            st = gb_plot_ref(p, gb_roof_info(r)->name, c->value[r], gb_roof_info(r)->unit);
        }
    if (st == GB_OK && (st = rl_memory_lines(p, c, xlo, xhi, top)) == GB_OK)
        st = rl_markers(p, rl);
out:
    if (st != GB_OK)
        gb_plot_free(p);
    else
        *out = p;
    return st;
}
