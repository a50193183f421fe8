/* lpbm_internal.h - the parsed spec the breakdown's adapter shares between
 * its files (lpbm_spec.c reads it, lpbm_input.c uses it). */
#ifndef GB_LPBM_INTERNAL_H
#define GB_LPBM_INTERNAL_H

#include <stddef.h>

#define GB_LPBM_SPEC_MAX 24
#define GB_LPBM_PATH 4096

struct gb_lpbm_sbench {
    char name[64], kernel[128], source[256];
    char axes[GB_LPBM_SPEC_MAX][32];
    int n_axes;
    char def_names[GB_LPBM_SPEC_MAX][32], def_exprs[GB_LPBM_SPEC_MAX][160];
    int n_defines;
    char arg_names[GB_LPBM_SPEC_MAX][32], arg_exprs[GB_LPBM_SPEC_MAX][160];
    int n_args;
    int arg_pos[GB_LPBM_SPEC_MAX];   /* argument i (in order): its index among the scalars, or -1 */
    int n_all_args;
    char problem[GB_LPBM_SPEC_MAX][32];
    int n_problem, has_problem_axes;
    char block[3][160], grid[3][160];
    char dyn_smem[160], flops[256], bytes[256];
    char l_ops[256], l_global[256], l_shared[256];   /* the optional "lpbm" object */
    char l_note[512];                                /* its "note": what the terms miss */
};

struct gb_lpbm_spec {
    char path[GB_LPBM_PATH], dir[GB_LPBM_PATH];
    char suite[32];
    char source[512];
    struct gb_lpbm_sbench *b;
    size_t n;
};

#endif
