/* breakdown_chart.c - the LPBM breakdown as stacked bars
 * (include/gpubound/breakdown_chart.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/breakdown_chart.h"

static void chart_name(const char *stem, const char *problem, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s%s", stem, problem[0] ? "-" : "");
    for (const char *c = problem; *c && len + 1 < n; c++)
        buf[len++] = (isalnum((unsigned char)*c) || *c == '-' || *c == '_' || *c == '.') ? *c : '_';
    buf[len < n ? len : n - 1] = '\0';
}

/* "a=1 b=2" -> names "a, b" (when `names` is non-NULL) and values "1, 2". */
static void split_config(const char *config, char *names, char *values, size_t n)
{
    size_t ln = 0, lv = 0;
    if (names)
        names[0] = '\0';
    values[0] = '\0';
    for (const char *c = config; *c;) {
        const char *eq = strchr(c, '='), *end = strchr(c, ' ');
        if (!end)
            end = c + strlen(c);
        if (eq && eq < end) {
            if (names && ln < n)
                ln += (size_t)snprintf(names + ln, n - ln, "%s%.*s", ln ? ", " : "", (int)(eq - c), c);
            if (lv < n)
                lv += (size_t)snprintf(values + lv, n - lv, "%s%.*s", lv ? ", " : "",
                                       (int)(end - eq - 1), eq + 1);
        }
        c = *end ? end + 1 : end;
    }
}

/* The axis names every configuration of `problem` shares, in one order,
 * into names ("" when they differ or do not fit): the tics then carry the
 * values alone and the axis label the names. */
static void shared_names(const struct gb_lpbm_bench_model *m, const char *problem, char *names,
                         size_t n)
{
    char first[256] = "", other[256], values[256];
    int any = 0;
    names[0] = '\0';
    for (size_t i = 0; i < m->fit.n; i++) {
        if (strcmp(m->pts[i].problem, problem) != 0)
            continue;
        split_config(m->pts[i].config, any ? other : first, values, sizeof first);
        if (any && strcmp(first, other) != 0)
            return;
        any = 1;
    }
    if (first[0] && strlen(first) + 1 < n)
        snprintf(names, n, "%s", first);
}

/* The bars' series: one per term the fit has; where the model does not
 * explain the kernel, one only (idx[0]), its whole prediction, for no term
 * is named then. */
static enum gb_status term_series(const struct gb_lpbm_bench_model *m, struct gb_plot *p,
                                  int idx[GB_LPBM_TERMS])
{
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        idx[j] = -1;
    if (!m->verdict.explains)
        return gb_plot_series(p, "predicted by a fit that does not hold", &idx[0]);
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        enum gb_status st;
        if (gb_lpbm_model_has(m, (enum gb_lpbm_term)j) && m->fit.present[j] &&
            (st = gb_plot_series(p, gb_lpbm_term_info((enum gb_lpbm_term)j)->label, &idx[j])))
            return st;
    }
    return GB_OK;
}

static enum gb_status draw_one(const struct gb_lpbm_bench_model *m, const char *problem,
                               const char *dir, const char *stem, const char *subtitle,
                               int formats, struct gb_report_result *res)
{
    char name[256], title[256], names[256], xlabel[300];
    int idx[GB_LPBM_TERMS];
    enum gb_status st;
    chart_name(stem, problem, name, sizeof name);
    snprintf(title, sizeof title, "%s: %s/%s%s%s (LPBM, %s form)",
             m->verdict.explains ? "Where the time goes" : "The model does not explain this kernel",
             m->suite, m->bench, problem[0] ? ", " : "", problem, gb_lpbm_form_name(m->form));
    struct gb_plot *p = gb_plot_new(GB_CHART_BAR, name, title);
    if (!p)
        return gb_error_set(GB_ERR_USAGE, "cannot make a chart named '%s'", name);
    gb_plot_formats(p, formats);
    shared_names(m, problem, names, sizeof names);
    snprintf(xlabel, sizeof xlabel, names[0] ? "configuration (%s)" : "configuration", names);
    if ((st = gb_plot_subtitle(p, subtitle)) || (st = gb_plot_stacked(p, "measured (95% CI)")) ||
        (st = gb_plot_labels(p, xlabel, "time per launch (ns)")))
        goto out;
    if ((st = term_series(m, p, idx)) != GB_OK)
        goto out;
    for (size_t i = 0; i < m->fit.n && st == GB_OK; i++) {
        const struct gb_lpbm_point *pt = &m->pts[i];
        double terms[GB_LPBM_TERMS];
        char cat[256];
        if (strcmp(pt->problem, problem) != 0)
            continue;
        if (names[0])
            split_config(pt->config, NULL, cat, sizeof cat);
        else
            snprintf(cat, sizeof cat, "%s", pt->config);
        double total = gb_lpbm_predict(&m->fit, pt, terms);
        if (!m->verdict.explains)
            terms[0] = total;  /* one bar: the prediction, not split among terms */
        for (int j = 0; j < GB_LPBM_TERMS && st == GB_OK; j++)
            if (idx[j] >= 0)
                st = gb_plot_bar(p, idx[j], cat, terms[j], terms[j], terms[j]);
        if (st == GB_OK)
            st = gb_plot_bar_mark(p, cat, pt->time_ns, pt->ci_lo_ns, pt->ci_hi_ns);
    }
    if (st == GB_OK && (st = gb_plot_time_axis(p)) == GB_OK)
        st = gb_plot_draw(p, dir, res);
out:
    gb_plot_free(p);
    return st;
}

enum gb_status gb_breakdown_chart_draw(const struct gb_lpbm_bench_model *m, const char *dir,
                                       const char *stem, const char *subtitle, int formats,
                                       struct gb_report_result *res)
{
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < m->fit.n && st == GB_OK; i++) {
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(m->pts[k].problem, m->pts[i].problem) == 0;
        if (!seen)
            st = draw_one(m, m->pts[i].problem, dir, stem, subtitle, formats, res);
    }
    return st;
}
