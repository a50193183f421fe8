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

static enum gb_status draw_one(const struct gb_lpbm_bench_model *m, const char *problem,
                               const char *dir, const char *stem, const char *subtitle,
                               int formats, struct gb_report_result *res)
{
    char name[256], title[256];
    int idx[GB_LPBM_TERMS];
    enum gb_status st;
    chart_name(stem, problem, name, sizeof name);
    snprintf(title, sizeof title, "Where the time goes: %s/%s%s%s (LPBM, %s form)", m->suite,
             m->bench, problem[0] ? ", " : "", problem, gb_lpbm_form_name(m->form));
    struct gb_plot *p = gb_plot_new(GB_CHART_BAR, name, title);
    if (!p)
        return gb_error_set(GB_ERR_USAGE, "cannot make a chart named '%s'", name);
    gb_plot_formats(p, formats);
    if ((st = gb_plot_subtitle(p, subtitle)) || (st = gb_plot_stacked(p, "measured (95% CI)")) ||
        (st = gb_plot_labels(p, "configuration", "time per launch (ns)")))
        goto out;
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        idx[j] = -1;
        if (gb_lpbm_model_has(m, (enum gb_lpbm_term)j) && m->fit.present[j] &&
            (st = gb_plot_series(p, gb_lpbm_term_info((enum gb_lpbm_term)j)->label, &idx[j])))
            goto out;
    }
    for (size_t i = 0; i < m->fit.n && st == GB_OK; i++) {
        const struct gb_lpbm_point *pt = &m->pts[i];
        double terms[GB_LPBM_TERMS];
        if (strcmp(pt->problem, problem) != 0)
            continue;
        gb_lpbm_predict(&m->fit, pt, terms);
        for (int j = 0; j < GB_LPBM_TERMS && st == GB_OK; j++)
            if (idx[j] >= 0)
                st = gb_plot_bar(p, idx[j], pt->config, terms[j], terms[j], terms[j]);
        if (st == GB_OK)
            st = gb_plot_bar_mark(p, pt->config, pt->time_ns, pt->ci_lo_ns, pt->ci_hi_ns);
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
