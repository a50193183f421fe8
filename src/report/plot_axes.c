/* plot_axes.c - the pieces every gnuplot script of a plot shares: quoted
 * strings, the terminals, the common settings and palette, the y range and
 * the category tics, reference lines and the legend; and time axes in the
 * unit that suits the data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/numbers.h"
#include "gpubound/plot.h"
#include "plot_internal.h"
#include "report_internal.h"

/* Okabe & Ito's palette: distinct for the common colour-vision deficiencies. */
const char *const gb_colours[GB_N_COLOURS] = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999",
    /* past eight series (the breakdown's terms): wine, yellow, brown, indigo */
    "#882255", "#F0E442", "#8C564B", "#332288",
};
/* Point types that stay distinct in grey: circle, square, triangle, diamond... */
const int gb_point_types[GB_N_COLOURS] = {7, 5, 9, 13, 11, 15, 7, 5, 9, 13, 11, 15};

/* Reference lines: dark greys, told apart by their dashes. Each has its own
 * grey too, because gnuplot's SVG output merges consecutive arrows of one
 * colour into one path and keeps only the first dash pattern. */
static const char *const gb_ref_dashes[GB_N_DASHES] = {"(10,6)", "(3,4)", "(16,5,3,5)", "(6,3)"};
static const char *const gb_ref_greys[GB_N_DASHES] = {"#404040", "#1a1a1a", "#5a5a5a", "#2d2d2d"};

/* ---- time axes ---- */

/* Calls fn on every y value of a line or bar chart: points, their
 * intervals, reference lines and stars. */
static void gb_plot_each_y(struct gb_plot *p, void (*fn)(double *v, void *ctx), void *ctx)
{
    for (size_t s = 0; s < p->n_series; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            struct gb_pt *pt = &p->series[s].pts[i];
            fn(&pt->y, ctx);
            fn(&pt->lo, ctx);
            fn(&pt->hi, ctx);
        }
    for (size_t r = 0; r < p->n_refs; r++)
        fn(&p->refs[r].y, ctx);
    for (size_t i = 0; i < p->n_stars; i++)
        fn(&p->stars[i].y, ctx);
    for (size_t i = 0; i < p->n_marks; i++) {
        fn(&p->marks[i].y, ctx);
        fn(&p->marks[i].lo, ctx);
        fn(&p->marks[i].hi, ctx);
    }
}

struct gb_span {
    double lo, hi;   /* smallest and largest |y| > 0 */
};

static void gb_span_add(double *v, void *ctx)
{
    struct gb_span *sp = ctx;
    double a = fabs(*v);
    if (isfinite(a) && a > 0) {
        sp->lo = fmin(sp->lo, a);
        sp->hi = fmax(sp->hi, a);
    }
}

static void gb_divide(double *v, void *ctx)
{
    *v /= *(const double *)ctx;
}

/* The unit of a time axis: the largest in which the largest value is at
 * least 1, so that ticks read as plain numbers (120, not 1.2e+05); on a
 * log axis one smaller when that keeps the smallest value above 1e-3. */
static int gb_time_unit(const struct gb_span *sp, int log_y)
{
    static const double div[4] = {1, 1e3, 1e6, 1e9};
    int u = 0;
    if (!isfinite(sp->hi))
        return 0;
    while (u < 3 && sp->hi / div[u + 1] >= 1)
        u++;
    while (log_y && u > 0 && sp->lo / div[u] < 1e-3 && sp->hi / div[u - 1] < 1e5)
        u--;
    return u;
}

enum gb_status gb_plot_time_axis(struct gb_plot *p)
{
    static const char *const names[4] = {"ns", "µs", "ms", "s"};
    static const double div[4] = {1, 1e3, 1e6, 1e9};
    struct gb_span sp = {INFINITY, -INFINITY};
    char label[512];

    if (p->kind == GB_CHART_HEAT)
        return GB_OK;
    gb_plot_each_y(p, gb_span_add, &sp);
    int u = gb_time_unit(&sp, p->log_y);
    double d = div[u];
    if (u)
        gb_plot_each_y(p, gb_divide, &d);
    for (size_t r = 0; r < p->n_refs; r++) {
        enum gb_status st;
        if (strcmp(p->refs[r].unit, "ns") == 0 && (st = gb_plot_replace(&p->refs[r].unit, names[u])))
            return st;
    }
    /* "time (ns)" becomes "time (µs)"; a label without a unit gets one. */
    const char *y = p->y_label ? p->y_label : "time";
    size_t n = strlen(y);
    if (n >= 5 && strcmp(y + n - 5, " (ns)") == 0)
        n -= 5;
    snprintf(label, sizeof label, "%.*s (%s)", (int)(n < 400 ? n : 400), y, names[u]);
    return gb_plot_replace(&p->y_label, label);
}

/* A gnuplot single-quoted string: nothing inside is substituted; a quote
 * is doubled; line breaks would end the command, so they become blanks. */
void gb_gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else if ((unsigned char)*s < 0x20)
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* A tic label of an explicit tic list: gnuplot reads it as a format for
 * the tic's value, so a '%' of the text is doubled. */
void gb_gp_tic(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else if (*s == '%')
            fputs("%%", f);
        else if ((unsigned char)*s < 0x20)
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* A quoted field of a datablock line (gnuplot has no escape there). */
void gb_gp_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++)
        fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
    fputc('"', f);
}

void gb_gp_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputc('?', f);
}

int gb_plot_wants(const struct gb_plot *p, int format)
{
    return !p->formats || (p->formats & format);
}

static void gb_gp_png(FILE *f, const struct gb_plot *p)
{
    fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'Sans,13' "
               "background rgb 'white'\n", GB_PLOT_W, GB_PLOT_H);
    fprintf(f, "set output '%s.png'\n", p->name);
}

/* The first output, set just before the plot command: the SVG, with the PNG
 * as a replot after it (gb_gp_finish), or the PNG alone. */
void gb_gp_svg(FILE *f, const struct gb_plot *p)
{
    if (!gb_plot_wants(p, GB_PLOT_SVG)) {
        gb_gp_png(f, p);
        return;
    }
    fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'Sans,16' "
               "background rgb 'white'\n", GB_PLOT_W, GB_PLOT_H);
    fprintf(f, "set output '%s.svg'\n", p->name);
}

/* After the plot command: the PNG as a replot of the SVG, when both are wanted. */
void gb_gp_finish(FILE *f, const struct gb_plot *p)
{
    if (gb_plot_wants(p, GB_PLOT_SVG) && gb_plot_wants(p, GB_PLOT_PNG)) {
        gb_gp_png(f, p);
        fputs("replot\nunset output\n", f);
    } else {
        fputs("unset output\n", f);
    }
}

static void gb_gp_labelled(FILE *f, const char *cmd, const char *s)
{
    fprintf(f, "%s ", cmd);
    gb_gp_str(f, s ? s : "");
    fputc('\n', f);
}

/* Writes `s` as a gnuplot string expression broken into lines of at most
 * `cols` characters at blanks: 'one' . "\n" . 'two'. The line breaks
 * are the only double-quoted strings, and they are ours. `before` lines
 * were already written. Returns the lines written in all. */
static int gb_gp_wrapped(FILE *f, const char *s, int before, size_t cols)
{
    char line[512];
    while (s && *s) {
        size_t len = strlen(s), cut = len;
        if (len > cols) {
            cut = cols;
            while (cut > cols / 2 && s[cut] != ' ')
                cut--;
            if (s[cut] != ' ') {
                /* No blank: cut anyway, but not inside a UTF-8 character. */
                cut = cols;
                while (cut > 1 && ((unsigned char)s[cut] & 0xC0) == 0x80)
                    cut--;
            }
        }
        snprintf(line, sizeof line, "%.*s", (int)(cut < sizeof line ? cut : sizeof line - 1), s);
        if (before++)
            fputs(" . \"\\n\" . ", f);
        gb_gp_str(f, line);
        s += cut;
        while (*s == ' ')
            s++;
    }
    return before;
}

int gb_series_has_ci(const struct gb_series *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (isfinite(s->pts[i].lo) && isfinite(s->pts[i].hi))
            return 1;
    return 0;
}

void gb_gp_common(FILE *f, const struct gb_plot *p)
{
    fputs("set encoding utf8\n", f);
    fputs("set datafile missing '?'\n", f);
    for (int i = 0; i < GB_N_COLOURS; i++)
        fprintf(f, "set linetype %d lc rgb '%s' lw 2.5 pt %d ps 1.5 dt solid\n", i + 1,
                gb_colours[i], gb_point_types[i]);
    fprintf(f, "set linetype cycle %d\n", GB_N_COLOURS);
    fputs("set border 3 lw 1.5 lc rgb '#404040'\n", f);
    fputs("set tics nomirror out scale 0.75 textcolor rgb '#202020'\n", f);
    fputs("set style textbox opaque noborder margins 1,1\n", f);
    if (p->title || p->subtitle) {
        /* gnuplot centres the title over the plot area: it is wrapped to
         * that width (18-point type, up to 13 px a character in the PNG),
         * so that beside a wide legend it does not run off the image's
         * left. */
        double plot_px = GB_PLOT_W - GB_PLOT_Y_AXIS_PX - gb_gp_key_px(p);
        size_t cols = plot_px / 13 < GB_TITLE_COLS ? (size_t)(plot_px / 13) : GB_TITLE_COLS;
        cols = cols < GB_TITLE_COLS / 2 ? GB_TITLE_COLS / 2 : cols;
        fputs("set title ", f);
        int lines = gb_gp_wrapped(f, p->title, 0, cols);
        gb_gp_wrapped(f, p->subtitle, lines, cols);
        fputs(" font ',18'\n", f);
    }
    if (p->x_label)
        gb_gp_labelled(f, "set xlabel", p->x_label);
    if (p->y_label)
        gb_gp_labelled(f, "set ylabel", p->y_label);
}

/* The y range of line and bar charts: data, error bars, reference lines
 * and the bars' base, from zero on a linear axis (spanning these alone for
 * a y_fit line chart or bars from a base), with headroom for the labels of
 * the lines. */
void gb_gp_yrange(FILE *f, const struct gb_plot *p)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t s = 0; s < p->n_series; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            const struct gb_pt *pt = &p->series[s].pts[i];
            double v[3] = {pt->y, pt->lo, pt->hi};
            for (int k = 0; k < 3; k++)
                if (isfinite(v[k]) && (!p->log_y || v[k] > 0)) {
                    lo = fmin(lo, v[k]);
                    hi = fmax(hi, v[k]);
                }
        }
    for (size_t r = 0; r < p->n_refs; r++)
        if (!p->log_y || p->refs[r].y > 0) {
            lo = fmin(lo, p->refs[r].y);
            hi = fmax(hi, p->refs[r].y);
        }
    for (size_t i = 0; i < p->n_stars; i++)
        if (!p->log_y || p->stars[i].y > 0) {
            lo = fmin(lo, p->stars[i].y);
            hi = fmax(hi, p->stars[i].y);
        }
    if (p->has_bar_base && (!p->log_y || p->bar_base > 0)) {
        lo = fmin(lo, p->bar_base);
        hi = fmax(hi, p->bar_base);
    }
    if (!isfinite(lo) || !isfinite(hi))
        return;
    if (p->log_y) {
        fputs("set logscale y 10\nset format y '%g'\n", f);
        fprintf(f, "set yrange [%.10g:%.10g]\n", lo / 1.6, hi * 1.8);
        fputs("set grid ytics mytics back lt 1 lc rgb '#dcdcdc' lw 1, "
              "lt 1 lc rgb '#f0f0f0' lw 1\n", f);
        return;
    }
    if ((p->y_fit && p->kind == GB_CHART_LINE) || p->has_bar_base) {
        double pad = hi > lo ? 0.08 * (hi - lo) : 0.01 * fabs(hi) + 1e-9;
        fprintf(f, "set yrange [%.10g:%.10g]\n", lo - pad, hi + pad);
        fputs("set format y '%g'\nset grid ytics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
        return;
    }
    if (lo > 0)
        lo = 0;
    if (hi <= lo)
        hi = lo + 1;
    fprintf(f, "set yrange [%.10g:%.10g]\n", lo < 0 ? lo * 1.1 : lo, hi + 0.1 * (hi - lo));
    fputs("set format y '%g'\n", f);
    fputs("set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
}

/* Reference lines span the plot; they are named in the legend, not on the
 * plot, so that no label ever covers a bar or a point. */
void gb_gp_refs(FILE *f, const struct gb_plot *p)
{
    for (size_t r = 0; r < p->n_refs; r++)
        fprintf(f, "set arrow from graph 0, first %.10g to graph 1, first %.10g nohead front "
                   "lw 2 dt %s lc rgb '%s'\n", p->refs[r].y, p->refs[r].y,
                gb_ref_dashes[r % GB_N_DASHES], gb_ref_greys[r % GB_N_DASHES]);
}

/* The legend entries of the reference lines, appended to a plot command. */
void gb_gp_ref_keys(FILE *f, const struct gb_plot *p)
{
    for (size_t r = 0; r < p->n_refs; r++) {
        const struct gb_ref *ref = &p->refs[r];
        char num[64], text[512];
        gb_format_num(num, sizeof num, ref->y, 4);
        snprintf(text, sizeof text, "%s (%s%s%s)", ref->label, num, ref->unit[0] ? " " : "",
                 ref->unit);
        fprintf(f, ", \\\n     keyentry with lines lw 2 dt %s lc rgb '%s' title ",
                gb_ref_dashes[r % GB_N_DASHES], gb_ref_greys[r % GB_N_DASHES]);
        gb_gp_str(f, text);
    }
}

double gb_gp_key_px(const struct gb_plot *p)
{
    size_t key = 0;
    for (size_t s = 0; s < p->n_series; s++)
        key = strlen(p->series[s].label) > key ? strlen(p->series[s].label) : key;
    for (size_t r = 0; r < p->n_refs; r++)
        key = strlen(p->refs[r].label) + 12 > key ? strlen(p->refs[r].label) + 12 : key;
    size_t marks = p->stacked && p->n_marks > 0;  /* stacked bars' marks: one entry more */
    if (marks && p->mark_label && strlen(p->mark_label) > key)
        key = strlen(p->mark_label);
    return p->n_series + p->n_refs + p->n_stars + marks > 1 ? key * GB_KEY_CHAR_PX + 90 : 0;
}

void gb_gp_key(FILE *f, size_t n_entries)
{
    if (n_entries <= 1) {
        fputs("set key off\n", f);
        return;
    }
    /* Outside the plot area, so that the legend never covers data. */
    fputs("set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 "
          "width 1 box lc rgb '#bbbbbb'\n", f);
}

/* The x tics of categories 0..n-1 named by `cats`, laid flat when the
 * widest name fits its slot, else slanted, else on end. The slot is the
 * plot's width (the image's, less the y axis and the legend beside it,
 * gb_gp_key_px) over the categories; widths in pixels of the SVG's 16 px
 * font. */
void gb_gp_cat_tics(FILE *f, const struct gb_plot *p, int with_labels)
{
    size_t widest = 0;
    for (size_t i = 0; i < p->cats.n; i++)
        widest = strlen(p->cats.v[i]) > widest ? strlen(p->cats.v[i]) : widest;
    double char_px = GB_KEY_CHAR_PX, line_px = 20.0;
    double slot = (GB_PLOT_W - GB_PLOT_Y_AXIS_PX - gb_gp_key_px(p)) / (double)(p->cats.n ? p->cats.n : 1);
    const char *how = "";
    if (widest * char_px + 10 > slot)
        how = slot * 0.7071 >= 1.2 * line_px ? " rotate by 45 right" : " rotate by 90 right";
    fprintf(f, "set xtics nomirror scale 0%s", how);
    if (with_labels) {
        fputs(" (", f);
        for (size_t i = 0; i < p->cats.n; i++) {
            fputs(i ? ", " : "", f);
            gb_gp_tic(f, p->cats.v[i]);
            fprintf(f, " %zu", i);
        }
        fputc(')', f);
    }
    fputc('\n', f);
}
