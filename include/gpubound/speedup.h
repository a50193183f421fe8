/* speedup.h - the speedup of one measurement over another and its interval,
 * from the two medians and their confidence intervals.
 *
 * speedup = base / improved (times, e.g. the original kernel's median over
 * the revised kernel's). Its 95% interval combines the two medians' 95%
 * intervals on the log scale: each side of a median's interval is taken as
 * 1.96 standard errors of the log median on that side, the two independent
 * errors add in quadrature, and each side of the ratio is built from the
 * sides of the two intervals that move it that way:
 *
 *   lo = s * exp(-sqrt(ln(b/b_lo)^2 + ln(i_hi/i)^2))
 *   hi = s * exp(+sqrt(ln(b_hi/b)^2 + ln(i/i_lo)^2))
 *
 * (b, i: the medians; _lo, _hi: their interval ends). This is the delta
 * method for the log of a ratio of independent estimates, keeping the
 * asymmetry of each interval. It always lies inside the bound of plain
 * interval arithmetic, [b_lo / i_hi, b_hi / i_lo], which covers with at
 * least 0.95^2 = 90.25% probability whatever the errors' shapes and is
 * usually much wider than 95%.
 *
 * Pure computation; thread-safe.
 */
#ifndef GPUBOUND_SPEEDUP_H
#define GPUBOUND_SPEEDUP_H

#include "gpubound/api.h"

#include "gpubound/status.h"

struct gb_speedup {
    double ratio;           /* base / improved */
    double lo, hi;          /* its approximate 95% interval (see above) */
    double lo_bound, hi_bound; /* the interval-arithmetic bound [b_lo/i_hi, b_hi/i_lo] */
};

/* Computes the speedup of `improved` over `base` from their medians and the
 * ends of their 95% intervals (all in the same unit, e.g. ns). A missing
 * interval may be given as lo = hi = median (it then adds no width).
 * GB_ERR_USAGE when a value is not finite or not positive, or an interval
 * does not hold its median. */
GB_API enum gb_status gb_speedup_ratio(double base, double base_lo, double base_hi, double improved,
                                double improved_lo, double improved_hi, struct gb_speedup *out);

#endif
