/* band.h - the chart of a CampProf band (src/report/band.c): the worst and
 * best bounds over active warps per SM, the application line through a
 * measured time, and measured points with their confidence intervals.
 * Drawing only: every number comes from the model (gpubound/campprof.h).
 */
#ifndef GPUBOUND_BAND_H
#define GPUBOUND_BAND_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/campprof.h"
#include "gpubound/report.h"
#include "gpubound/status.h"

struct gb_band_chart {
    const char *dir;              /* where the files go (exists) */
    const char *stem;             /* file name without extension: letters, digits, '-', '_', '.' */
    const char *title, *subtitle;
    const struct gb_camp_row *rows;   /* n configurations; app_ns drawn when time_ns is finite */
    size_t n;
    double at_warps, time_ns;     /* the measured start, drawn as a star; NaN time: none */
    const char *star_label;
    const char *level;            /* what the worst bound camps on ("L2 slice"), or NULL */
    const double *measured_ns;    /* n measured times, or NULL for no measured series */
    const double *measured_lo_ns, *measured_hi_ns; /* their CIs, or NULL */
    /* n flags, or NULL: a measured configuration outside the domain of
     * validity (gb_camp_domain_applies), drawn as a series of its own */
    const unsigned char *outside;
};

/* Draws the chart as <dir>/<stem>.svg and .png with its gnuplot script
 * (gb_plot_draw), listing what it wrote, or could not draw without
 * gnuplot, in `res`. GB_ERR_USAGE for a stem gnuplot files cannot take;
 * errors of gb_plot_draw. */
GB_API enum gb_status gb_band_draw(const struct gb_band_chart *c, struct gb_report_result *res);

/* Splits a chart's file name "dir/stem.svg" into the directory ("." when
 * none) and the stem gb_band_draw takes. GB_ERR_USAGE when the name does not
 * end in .svg or has no stem. */
GB_API enum gb_status gb_band_path(const char *path, char *dir, size_t dn, char *stem, size_t sn);

#endif
