/* lpbm_internal.h - the spec the breakdown's adapter shares between its
 * files: lpbm_spec.c loads it through the spec parser (gpubound/spec.h),
 * lpbm_input.c reads each bench's fields as text. */
#ifndef GB_LPBM_INTERNAL_H
#define GB_LPBM_INTERNAL_H

#include <stddef.h>

#include "gpubound/lpbm.h"
#include "gpubound/spec.h"

#define GB_LPBM_PATH 4096

struct gb_lpbm_spec {
    char path[GB_LPBM_PATH], dir[GB_LPBM_PATH];
    struct gb_spec *spec;                 /* as the spec parser read it */
    struct gb_spec_bench_text *b;         /* its benches, every expression as text */
    size_t n;
};

/* The resources form's predictors of `p` (wf_ndr filled; wf_wg warps per
 * block): lpbm_terms.c. GB_ERR_FORMAT when a counter is missing. */
enum gb_status gb_lpbm_resources(struct gb_lpbm_point *p, double wf_wg);

#endif
