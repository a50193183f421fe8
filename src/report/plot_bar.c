/* plot_bar.c - the gnuplot script of a bar chart: bars side by side per
 * group with their intervals, or stacked with a mark per group. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/plot.h"
#include "plot_internal.h"
#include "report_internal.h"

static enum gb_status gb_gp_stacked(FILE *f, const struct gb_plot *p);

/* The bars' datablock: one row per group, the label, then y, ylo, yhi of
 * each series ('?' where the group lacks the series). */
static void gb_gp_bar_block(FILE *f, const struct gb_plot *p)
{
    fputs("$bars << EOD\n", f);
    for (size_t g = 0; g < p->cats.n; g++) {
        gb_gp_field(f, p->cats.v[g]);
        for (size_t s = 0; s < p->n_series; s++) {
            const struct gb_pt *pt = NULL;
            for (size_t i = 0; i < p->series[s].n; i++)
                if (p->series[s].pts[i].x == (double)g)
                    pt = &p->series[s].pts[i];
            int ci = pt && isfinite(pt->lo) && isfinite(pt->hi);
            fputc(' ', f);
            gb_gp_num(f, pt ? pt->y : NAN);
            fputc(' ', f);
            gb_gp_num(f, pt ? (ci ? pt->lo : pt->y) : NAN);
            fputc(' ', f);
            gb_gp_num(f, pt ? (ci ? pt->hi : pt->y) : NAN);
        }
        fputc('\n', f);
    }
    fputs("EOD\n", f);
}

/* The plot command of side-by-side bars from zero: gnuplot's histograms. */
static void gb_gp_bar_histogram(FILE *f, const struct gb_plot *p, int any_ci)
{
    fputs("plot ", f);
    for (size_t s = 0; s < p->n_series; s++) {
        size_t c = 2 + 3 * s;
        if (any_ci)
            fprintf(f, "%s$bars using %zu:%zu:%zu%s lt %zu title ", s ? ", \\\n     " : "", c,
                    c + 1, c + 2, s ? "" : ":xtic(1)", s + 1);
        else
            fprintf(f, "%s$bars using %zu%s lt %zu title ", s ? ", \\\n     " : "", c,
                    s ? "" : ":xtic(1)", s + 1);
        gb_gp_str(f, p->series[s].label);
    }
}

/* The plot command of bars from the plot's base (a ratio's 1): each bar a
 * box from the base to its value, placed as a histogram would place it
 * (group g at x = g, the series side by side), its interval over it. */
static void gb_gp_bar_from_base(FILE *f, const struct gb_plot *p, int any_ci)
{
    double w = 1.0 / ((double)p->n_series + 1.5);
    fprintf(f, "gb_lo(y) = y < %.10g ? y : %.10g\ngb_hi(y) = y > %.10g ? y : %.10g\n", p->bar_base,
            p->bar_base, p->bar_base, p->bar_base);
    fputs("plot ", f);
    for (size_t s = 0; s < p->n_series; s++) {
        size_t c = 2 + 3 * s;
        double off = ((double)s - ((double)p->n_series - 1) / 2) * w, half = 0.46 * w;
        fprintf(f, "%s$bars using ($0%+.6f):%zu:($0%+.6f):($0%+.6f):(gb_lo($%zu)):(gb_hi($%zu)) "
                "with boxxyerror lt %zu title ", s ? ", \\\n     " : "", off, c, off - half, off + half, c, c,
                s + 1);
        gb_gp_str(f, p->series[s].label);
        /* The interval as a whisker with caps (yerrorbars would leave a gap at the value). */
        if (any_ci && gb_series_has_ci(&p->series[s]))
            fprintf(f, ", \\\n     $bars using ($0%+.6f):%zu:%zu:%zu:%zu:(%.6f) with candlesticks whiskerbars 1 "
                    "lw 1.5 lc rgb '#202020' notitle", off, c, c + 1, c + 2, c, 0.3 * w);
    }
}

enum gb_status gb_gp_bar(FILE *f, const struct gb_plot *p)
{
    if (p->stacked)
        return gb_gp_stacked(f, p);
    size_t total = 0;
    int any_ci = 0;
    for (size_t s = 0; s < p->n_series; s++) {
        total += p->series[s].n;
        any_ci |= gb_series_has_ci(&p->series[s]);
    }
    if (total == 0 || p->cats.n == 0)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no bars", p->name);
    gb_gp_bar_block(f, p);
    gb_gp_common(f, p);
    if (!p->has_bar_base)
        fprintf(f, "set style data histograms\nset style histogram %s gap 1.5%s\n",
                any_ci ? "errorbars" : "clustered", any_ci ? " lw 1.5" : "");
    fputs("set style fill solid 0.85 border rgb '#303030'\nset boxwidth 0.92 relative\n", f);
    fputs("set errorbars 1.2 lc rgb '#202020'\n", f);
    /* Many groups: slanted or upright labels rather than overlapping ones. */
    gb_gp_cat_tics(f, p, p->has_bar_base);
    fprintf(f, "set xrange [-0.6:%zu.6]\n", p->cats.n - 1);
    gb_gp_yrange(f, p);
    gb_gp_refs(f, p);
    gb_gp_key(f, p->n_series + p->n_refs);

    gb_gp_svg(f, p);
    if (p->has_bar_base)
        gb_gp_bar_from_base(f, p, any_ci);
    else
        gb_gp_bar_histogram(f, p, any_ci);
    gb_gp_ref_keys(f, p);
    fputc('\n', f);
    return GB_OK;
}

/* Stacked bars: one bar per group made of every series' value, and the
 * marks (a measured value with its interval) drawn over the bars. */
static enum gb_status gb_gp_stacked(FILE *f, const struct gb_plot *p)
{
    double hi = 0;
    if (p->cats.n == 0 || p->n_series == 0)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no bars", p->name);
    fputs("$bars << EOD\n", f);
    for (size_t g = 0; g < p->cats.n; g++) {
        double sum = 0;
        gb_gp_field(f, p->cats.v[g]);
        for (size_t s = 0; s < p->n_series; s++) {
            double y = 0;
            for (size_t i = 0; i < p->series[s].n; i++)
                if (p->series[s].pts[i].x == (double)g && isfinite(p->series[s].pts[i].y))
                    y = p->series[s].pts[i].y;
            fputc(' ', f);
            gb_gp_num(f, y);
            sum += y;
        }
        fputc('\n', f);
        hi = fmax(hi, sum);
    }
    fputs("EOD\n$marks << EOD\n", f);
    for (size_t i = 0; i < p->n_marks; i++) {
        const struct gb_pt *m = &p->marks[i];
        fprintf(f, "%.10g ", m->x);
        gb_gp_num(f, m->y);
        fputc(' ', f);
        gb_gp_num(f, isfinite(m->lo) ? m->lo : m->y);
        fputc(' ', f);
        gb_gp_num(f, isfinite(m->hi) ? m->hi : m->y);
        fputc('\n', f);
        hi = fmax(hi, isfinite(m->hi) ? m->hi : m->y);
    }
    fputs("EOD\n", f);
    gb_gp_common(f, p);
    fputs("set style data histograms\nset style histogram rowstacked\n", f);
    fputs("set style fill solid 0.85 border rgb '#303030'\nset boxwidth 0.7 relative\n", f);
    gb_gp_cat_tics(f, p, 0);
    fprintf(f, "set xrange [-0.6:%zu.6]\n", p->cats.n - 1);
    fprintf(f, "set yrange [0:%.10g]\nset format y '%%g'\n", hi > 0 ? hi * 1.12 : 1);
    fputs("set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
    gb_gp_key(f, p->n_series + (p->n_marks > 0));
    gb_gp_svg(f, p);
    fputs("plot ", f);
    for (size_t s = 0; s < p->n_series; s++) {
        fprintf(f, "%s$bars using %zu%s lt %zu title ", s ? ", \\\n     " : "", s + 2,
                s ? "" : ":xtic(1)", s + 1);
        gb_gp_str(f, p->series[s].label);
    }
    if (p->n_marks) {
        fputs(", \\\n     $marks using 1:2:3:4 with yerrorbars pt 7 ps 1.3 lw 1.5 "
              "lc rgb '#000000' title ", f);
        gb_gp_str(f, p->mark_label ? p->mark_label : "measured");
    }
    fputc('\n', f);
    return GB_OK;
}
