/* campprof_int.h - what the CampProf model's source files share
 * (the files of src/models/campprof/); not part of the public interface. */
#ifndef GPUBOUND_CAMPPROF_INT_H
#define GPUBOUND_CAMPPROF_INT_H

#include "gpubound/campprof.h"

/* Fits the latency-throughput form eq->form to samples s[0..n-1], given
 * eq's widths and warps range: terms L:b<W> and knee:b<W> per width, R^2,
 * adjusted R^2 and RMSE on the samples. GB_ERR_NUMERIC for a width with
 * fewer than 2 samples; errors of the regression module. */
enum gb_status gb_camp_lt_fit(struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                              size_t n);

/* Refits eq (its form, widths and op/pattern set) to samples s[0..n-1]:
 * the latency-throughput fit, or the linear fit with backward elimination
 * at p_remove. */
enum gb_status gb_camp_eq_refit(struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                                size_t n, double p_remove);

/* eq's held-out error over its samples (cv_gm, cv_rms, cv_folds): each
 * warps value left out in turn. GB_ERR_NOMEM only. */
enum gb_status gb_camp_heldout(struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                               size_t n, double p_remove);

#endif
