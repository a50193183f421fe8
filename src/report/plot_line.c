/* plot_line.c - the gnuplot script of a line chart: its datablocks, its x
 * axis (numeric, logarithmic with power-of-two labels, or categories) and
 * its plot command, series that coincide drawn so that each stays seen. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/numbers.h"
#include "gpubound/plot.h"
#include "plot_internal.h"
#include "report_internal.h"

/* "4K", "1M", "512" for a power of two. */
static void gb_pow2_label(char *buf, size_t n, double v)
{
    static const char suffix[] = {'\0', 'K', 'M', 'G', 'T'};
    int k = 0;
    while (k < 4 && v >= 1024 && fmod(v, 1024) == 0) {
        v /= 1024;
        k++;
    }
    if (k)
        snprintf(buf, n, "%.0f%c", v, suffix[k]);
    else
        snprintf(buf, n, "%g", v);
}

static int gb_is_pow2(double v)
{
    if (!(v > 0) || !isfinite(v))
        return 0;
    int e;
    double m = frexp(v, &e);
    return m == 0.5;
}

static int gb_cmp_pt(const void *a, const void *b)
{
    double x = ((const struct gb_pt *)a)->x, y = ((const struct gb_pt *)b)->x;
    return (x > y) - (x < y);
}

/* The datablocks of a line chart, one per series (points in x order) and
 * one per star; every x written goes to xs (room for all points). */
static enum gb_status gb_gp_line_data(FILE *f, const struct gb_plot *p, double *xs, size_t *nx)
{
    for (size_t s = 0; s < p->n_series; s++) {
        const struct gb_series *se = &p->series[s];
        /* Lines join points in x order, whatever order they were added in. */
        struct gb_pt *sorted = malloc((se->n ? se->n : 1) * sizeof *sorted);
        if (!sorted)
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        if (se->n)
            memcpy(sorted, se->pts, se->n * sizeof *sorted);
        qsort(sorted, se->n, sizeof *sorted, gb_cmp_pt);
        fprintf(f, "$s%zu << EOD\n", s);
        for (size_t i = 0; i < se->n; i++) {
            const struct gb_pt *pt = &sorted[i];
            int ci = isfinite(pt->lo) && isfinite(pt->hi);
            gb_gp_num(f, pt->x);
            fputc(' ', f);
            gb_gp_num(f, pt->y);
            fputc(' ', f);
            gb_gp_num(f, ci ? pt->lo : pt->y);
            fputc(' ', f);
            gb_gp_num(f, ci ? pt->hi : pt->y);
            fputc('\n', f);
            xs[(*nx)++] = pt->x;
        }
        fputs("EOD\n", f);
        free(sorted);
    }
    for (size_t i = 0; i < p->n_stars; i++) {
        fprintf(f, "$star%zu << EOD\n", i);
        gb_gp_num(f, p->stars[i].x);
        fputc(' ', f);
        gb_gp_num(f, p->stars[i].y);
        fputs("\nEOD\n", f);
        xs[(*nx)++] = p->stars[i].x;
    }
    return GB_OK;
}

/* A logarithmic x axis over the distinct values xs[0..nd) (sorted). */
static void gb_gp_line_logx(FILE *f, const double *xs, size_t nd)
{
    int pow2 = 1;
    for (size_t i = 0; i < nd; i++)
        pow2 &= gb_is_pow2(xs[i]);
    if (pow2) {
        /* A tick at each measured size, thinned to stay legible. */
        size_t step = nd > 14 ? (nd + 13) / 14 : 1;
        fputs("set logscale x 2\nset xtics (", f);
        for (size_t i = 0; i < nd; i += step) {
            char lab[32];
            gb_pow2_label(lab, sizeof lab, xs[i]);
            fputs(i ? ", " : "", f);
            gb_gp_tic(f, lab);
            fprintf(f, " %.10g", xs[i]);
        }
        fputs(")\n", f);
    } else {
        fputs("set logscale x 10\nset format x '%g'\nset mxtics 10\n", f);
    }
    fprintf(f, "set xrange [%.10g:%.10g]\n", xs[0] / 1.25, xs[nd - 1] * 1.25);
    fputs("set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
}

/* The x axis of a line chart: categories, logarithmic or linear over the
 * nx values of xs (sorted and made distinct here). */
static void gb_gp_line_xaxis(FILE *f, const struct gb_plot *p, double *xs, size_t nx)
{
    qsort(xs, nx, sizeof *xs, gb_stats_cmp_double);
    size_t nd = 0;
    for (size_t i = 0; i < nx; i++)
        if (nd == 0 || xs[i] != xs[nd - 1])
            xs[nd++] = xs[i];

    if (p->x_mode == 2) {
        fprintf(f, "set xrange [-0.5:%zu.5]\n", p->cats.n ? p->cats.n - 1 : 0);
        gb_gp_cat_tics(f, p, 1);
        fputs("set grid xtics ytics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
    } else if (p->log_x) {
        gb_gp_line_logx(f, xs, nd);
    } else {
        double span = nd > 1 ? xs[nd - 1] - xs[0] : fmax(fabs(xs[0]), 1);
        fprintf(f, "set xrange [%.10g:%.10g]\n", xs[0] - 0.04 * span, xs[nd - 1] + 0.04 * span);
        if (nd <= 12) {
            /* Tics closer than 3% of the span overlap (a start at 47.86
             * warps beside 48): the rounder one is kept. */
            size_t nt = 0;
            for (size_t i = 0; i < nd; i++) {
                if (nt && xs[i] - xs[nt - 1] < 0.03 * span) {
                    if (xs[i] == round(xs[i]) && xs[nt - 1] != round(xs[nt - 1]))
                        xs[nt - 1] = xs[i];
                    continue;
                }
                xs[nt++] = xs[i];
            }
            fputs("set xtics (", f);
            for (size_t i = 0; i < nt; i++)
                fprintf(f, "%s%.10g", i ? ", " : "", xs[i]);
            fputs(")\n", f);
        }
        fputs("set format x '%g'\nset grid xtics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
    }
}

/* Whether line series a and b coincide: they share at least two x, and at
 * four of five of them their y are closer than a marker's width (2.5% of
 * the axis, in decades on a log axis). */
static int gb_series_coincide(const struct gb_plot *p, const struct gb_series *a,
                              const struct gb_series *b)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t shared = 0, close = 0;
    for (size_t i = 0; i < a->n + b->n; i++) {
        double y = i < a->n ? a->pts[i].y : b->pts[i - a->n].y;
        if (isfinite(y) && (!p->log_y || y > 0)) {
            lo = fmin(lo, p->log_y ? log10(y) : y);
            hi = fmax(hi, p->log_y ? log10(y) : y);
        }
    }
    if (!p->log_y)
        lo = fmin(lo, 0);
    double tol = 0.025 * (hi > lo ? hi - lo : 1);
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++) {
            double ya = a->pts[i].y, yb = b->pts[j].y;
            if (a->pts[i].x != b->pts[j].x || !isfinite(ya) || !isfinite(yb) ||
                (p->log_y && (ya <= 0 || yb <= 0)))
                continue;
            shared++;
            close += fabs(p->log_y ? log10(ya / yb) : ya - yb) <= tol;
        }
    return shared >= 2 && 5 * close >= 4 * shared;
}

/* Whether series s lies under a later one that would hide it. Only on a
 * chart of a few series: among many, wide lines would cover the others. */
static int gb_series_covered(const struct gb_plot *p, size_t s)
{
    if (p->n_series > 4)
        return 0;
    for (size_t t = s + 1; t < p->n_series; t++)
        if (p->series[t].n && gb_series_coincide(p, &p->series[s], &p->series[t]))
            return 1;
    return 0;
}

/* The plot command of a line chart: series, then stars over them, then the
 * legend entries of the reference lines. */
static void gb_gp_line_plot(FILE *f, const struct gb_plot *p)
{
    fputs("plot ", f);
    int first = 1;
    for (size_t s = 0; s < p->n_series; s++) {
        if (p->series[s].n == 0)
            continue;
        const char *with = p->series[s].style == GB_PLOT_STYLE_LINES    ? "lines lw 2"
                           : p->series[s].style == GB_PLOT_STYLE_POINTS ? "points ps 1.6"
                           : gb_series_has_ci(&p->series[s])            ? "yerrorlines"
                                                                        : "linespoints";
        fprintf(f, "%s$s%zu using 1:2:3:4 with %s lt %zu", first ? "" : ", \\\n     ", s, with, s + 1);
        /* A series a later one would hide is drawn around it: a wide line and
         * large open markers, the later one's line and points inside them. */
        if (gb_series_covered(p, s))
            fprintf(f, " lw 6 pt %d ps 2.6", gb_point_types[s % GB_N_COLOURS] - 1);
        fputs(" title ", f);
        gb_gp_str(f, p->series[s].label);
        first = 0;
    }
    /* Stars last, so that they are drawn over the lines. */
    for (size_t i = 0; i < p->n_stars; i++) {
        fprintf(f, "%s$star%zu using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title ",
                first ? "" : ", \\\n     ", i);
        gb_gp_str(f, p->stars[i].label);
        first = 0;
    }
    gb_gp_ref_keys(f, p);
    fputc('\n', f);
}

enum gb_status gb_gp_line(FILE *f, const struct gb_plot *p)
{
    enum gb_status st;
    double *xs;
    size_t nx = 0, total = p->n_stars;

    for (size_t s = 0; s < p->n_series; s++)
        total += p->series[s].n;
    if (total == 0)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no points", p->name);
    if (!(xs = malloc(total * sizeof *xs)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if ((st = gb_gp_line_data(f, p, xs, &nx)) == GB_OK) {
        gb_gp_common(f, p);
        gb_gp_line_xaxis(f, p, xs, nx);
        gb_gp_yrange(f, p);
        gb_gp_refs(f, p);
        gb_gp_key(f, p->n_series + p->n_refs + p->n_stars);
        gb_gp_svg(f, p);
        gb_gp_line_plot(f, p);
    }
    free(xs);
    return st;
}
