/* band.c - the chart of a CampProf band (include/gpubound/band.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/band.h"

/* The series, in the legend's order: worst, application, best, measured,
 * measured outside the domain. */
struct gb_band_series {
    int worst, app, best, meas, out;
};

static enum gb_status gb_band_series(struct gb_plot *p, const struct gb_band_chart *c,
                                     struct gb_band_series *s)
{
    enum gb_status st;
    s->app = s->meas = s->out = -1;
    char worst[96];
    snprintf(worst, sizeof worst, "worst: every access camped%s%s", c->level ? " on one " : "",
             c->level ? c->level : "");
    if ((st = gb_plot_series(p, worst, &s->worst)))
        return st;
    if (isfinite(c->time_ns) &&
        (st = gb_plot_series(p, "application: the start's degree at each warp count", &s->app)))
        return st;
    if ((st = gb_plot_series(p, "best: no camping", &s->best)))
        return st;
    if (c->measured_ns && (st = gb_plot_series(p, "measured", &s->meas)))
        return st;
    if (c->measured_ns && c->outside &&
        (st = gb_plot_series(p, "measured, outside the domain: the band does not apply", &s->out)))
        return st;
    return GB_OK;
}

static enum gb_status gb_band_points(struct gb_plot *p, const struct gb_band_chart *c,
                                     const struct gb_band_series *s)
{
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < c->n && st == GB_OK; i++) {
        const struct gb_camp_row *r = &c->rows[i];
        double x = r->warps;
        /* A time <= 0 is outside what the model can say: not drawn (gb_band_clipped). */
        if ((r->worst_ns > 0 && (st = gb_plot_point(p, s->worst, x, r->worst_ns, NAN, NAN))) ||
            (r->best_ns > 0 && (st = gb_plot_point(p, s->best, x, r->best_ns, NAN, NAN))))
            break;
        if (s->app >= 0 && r->app_ns > 0 &&
            (st = gb_plot_point(p, s->app, x, r->app_ns, NAN, NAN)))
            break;
        if (s->meas >= 0)
            st = gb_plot_point(p, s->out >= 0 && c->outside[i] ? s->out : s->meas, x, c->measured_ns[i],
                               c->measured_lo_ns ? c->measured_lo_ns[i] : NAN,
                               c->measured_hi_ns ? c->measured_hi_ns[i] : NAN);
    }
    return st;
}

/* The subtitle, with a note when predicted times <= 0 were left out. */
static void gb_band_subtitle(const struct gb_band_chart *c, char *buf, size_t n)
{
    size_t clipped = 0;
    for (size_t i = 0; i < c->n; i++)
        clipped += !(c->rows[i].best_ns > 0) || !(c->rows[i].worst_ns > 0) ||
                   (isfinite(c->rows[i].app_ns) && !(c->rows[i].app_ns > 0));
    if (!clipped)
        snprintf(buf, n, "%s", c->subtitle ? c->subtitle : "");
    else
        snprintf(buf, n, "%s%stimes <= 0 not drawn (%zu of %zu)", c->subtitle ? c->subtitle : "",
                 c->subtitle && c->subtitle[0] ? "; " : "", clipped, c->n);
}

enum gb_status gb_band_draw(const struct gb_band_chart *c, struct gb_report_result *res)
{
    enum gb_status st = GB_OK;
    struct gb_band_series s;
    char subtitle[1024];
    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, c->stem, c->title);
    if (!p)
        return gb_error_set(GB_ERR_USAGE, "cannot make a chart named '%s' (use letters, digits, "
                            "'-', '_' and '.')", c->stem);
    gb_band_subtitle(c, subtitle, sizeof subtitle);
    if ((st = gb_plot_subtitle(p, subtitle[0] ? subtitle : NULL)) ||
        (st = gb_plot_labels(p, "active warps per SM", "time per launch")) ||
        (st = gb_band_series(p, c, &s)) || (st = gb_band_points(p, c, &s)))
        goto out;
    if (isfinite(c->time_ns) &&
        (st = gb_plot_star(p, c->star_label, c->at_warps, c->time_ns)))
        goto out;
    if ((st = gb_plot_time_axis(p)))
        goto out;
    st = gb_plot_draw(p, c->dir, res);
out:
    gb_plot_free(p);
    return st;
}

enum gb_status gb_band_path(const char *path, char *dir, size_t dn, char *stem, size_t sn)
{
    size_t len = strlen(path);
    if (len < 5 || strcmp(path + len - 4, ".svg") != 0)
        return gb_error_set(GB_ERR_USAGE, "a chart's file name must end in .svg, not '%s'", path);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash)
        snprintf(dir, dn, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    else
        snprintf(dir, dn, ".");
    snprintf(stem, sn, "%.*s", (int)(strlen(base) - 4), base);
    return stem[0] ? GB_OK : gb_error_set(GB_ERR_USAGE, "a chart's file name needs a stem before .svg");
}
