/* speedup.c - the ratio of two medians and its interval (see speedup.h). */
#include <math.h>

#include "gpubound/speedup.h"

static int gb_interval_ok(double m, double lo, double hi)
{
    return isfinite(m) && isfinite(lo) && isfinite(hi) && lo > 0 && lo <= m && m <= hi;
}

enum gb_status gb_speedup_ratio(double base, double base_lo, double base_hi, double improved,
                                double improved_lo, double improved_hi, struct gb_speedup *out)
{
    if (!gb_interval_ok(base, base_lo, base_hi))
        return gb_error_set(GB_ERR_USAGE, "speedup: base median %g with interval [%g, %g] is not a "
                            "positive median inside its interval", base, base_lo, base_hi);
    if (!gb_interval_ok(improved, improved_lo, improved_hi))
        return gb_error_set(GB_ERR_USAGE, "speedup: improved median %g with interval [%g, %g] is not a "
                            "positive median inside its interval", improved, improved_lo, improved_hi);
    double s = base / improved;
    /* Log distances from each median to the ends of its interval. */
    double b_down = log(base / base_lo), b_up = log(base_hi / base);
    double i_down = log(improved / improved_lo), i_up = log(improved_hi / improved);
    out->ratio = s;
    /* The ratio is low when the base is low and the improved time high. */
    out->lo = s * exp(-hypot(b_down, i_up));
    out->hi = s * exp(hypot(b_up, i_down));
    out->lo_bound = base_lo / improved_hi;
    out->hi_bound = base_hi / improved_lo;
    return GB_OK;
}
