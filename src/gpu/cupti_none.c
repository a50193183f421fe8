/* cupti_none.c - CUPTI in a build without the CUDA toolkit's headers
 * (GB_OWN_CUDA_DECLS, gpubound/cuda_decls.h): CMake compiles this file in
 * place of cupti.c and cupti_profiler.c. Every call says that this build
 * has no CUPTI, so the clocks fall back to CUDA events (docs/measurement.md)
 * and --counters is refused with that reason; reports and models, which
 * need neither, are unchanged. */
#include <stdio.h>

#include "gpu/cupti.h"
#include "gpu/cupti_profiler.h"

#define GB_NO_CUPTI "this gpubound was built without the CUDA toolkit's headers, so without CUPTI " \
                    "(timestamps and counters); rebuild it with the toolkit installed ('make deps' says how)"

enum gb_status gb_cupti_start(const char *skip_prefix)
{
    (void)skip_prefix;
    return gb_error_set(GB_ERR_UNSUPPORTED, GB_NO_CUPTI);
}

int gb_cupti_active(void)
{
    return 0;
}

enum gb_status gb_cupti_stream_id(CUcontext ctx, CUstream stream, uint32_t *id)
{
    (void)ctx;
    (void)stream;
    *id = 0;
    return gb_error_set(GB_ERR_UNSUPPORTED, GB_NO_CUPTI);
}

enum gb_status gb_cupti_take(uint32_t stream, struct gb_gpu_op **ops, size_t *n, size_t *dropped)
{
    (void)stream;
    *ops = NULL;
    *n = *dropped = 0;
    return gb_error_set(GB_ERR_UNSUPPORTED, GB_NO_CUPTI);
}

enum gb_status gb_cupti_discard(void)
{
    return GB_OK;
}

void *gb_cupti_dlopen(void)
{
    return NULL;
}

void gb_cupti_stop(void)
{
}

enum gb_status gb_profiler_open(struct gb_gpu *g, char *const *names, size_t n, int drop_unknown,
                                enum gb_profiler_replay replay, struct gb_profiler **out)
{
    (void)g;
    (void)names;
    (void)n;
    (void)drop_unknown;
    (void)replay;
    *out = NULL;
    return gb_error_set(GB_ERR_UNSUPPORTED, GB_NO_CUPTI);
}

size_t gb_profiler_metrics(const struct gb_profiler *p, const char *const **names)
{
    (void)p;
    *names = NULL;
    return 0;
}

size_t gb_profiler_dropped(const struct gb_profiler *p, const char *const **names)
{
    (void)p;
    *names = NULL;
    return 0;
}

size_t gb_profiler_passes(const struct gb_profiler *p)
{
    (void)p;
    return 0;
}

enum gb_status gb_profiler_collect(struct gb_profiler *p, enum gb_status (*before_pass)(void *ctx),
                                   enum gb_status (*work)(void *ctx), void *ctx, double **values,
                                   size_t *n_ranges)
{
    (void)p;
    (void)before_pass;
    (void)work;
    (void)ctx;
    *values = NULL;
    *n_ranges = 0;
    return gb_error_set(GB_ERR_UNSUPPORTED, GB_NO_CUPTI);
}

enum gb_status gb_profiler_start(struct gb_profiler *p)
{
    (void)p;
    return gb_error_set(GB_ERR_UNSUPPORTED, GB_NO_CUPTI);
}

enum gb_status gb_profiler_stop(struct gb_profiler *p, int *all_submitted)
{
    (void)p;
    *all_submitted = 0;
    return gb_error_set(GB_ERR_UNSUPPORTED, GB_NO_CUPTI);
}

enum gb_status gb_profiler_read(struct gb_profiler *p, double **values, size_t *n_ranges)
{
    (void)p;
    *values = NULL;
    *n_ranges = 0;
    return gb_error_set(GB_ERR_UNSUPPORTED, GB_NO_CUPTI);
}

void gb_profiler_close(struct gb_profiler *p)
{
    (void)p;
}

void gb_profiler_trace(char *buf, size_t n)
{
    if (n)
        snprintf(buf, n, "no CUPTI in this build");
}
