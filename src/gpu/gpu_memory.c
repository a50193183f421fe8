/* gpu_memory.c - device memory: allocation, and the helper kernels that
 * fill, compare and sum buffers on the device (kernels/util.cu). */
#include <stdlib.h>

#include "gpubound/gpu.h"
#include "gpu/cupti.h"
#include "gpu/gpu_internal.h"

uint32_t gb_fill_word(uint32_t seed, uint64_t i)
{
    /* splitmix64 finaliser; kernels/util.cu has the same function. */
    uint64_t z = i + 0x9E3779B97F4A7C15ull * ((uint64_t)seed + 1ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    uint32_t w = (uint32_t)z;
    return w ? w : 0x9E3779B9u;
}

enum gb_status gb_gpu_alloc(struct gb_gpu *g, size_t bytes, CUdeviceptr *out)
{
    (void)g;
    *out = 0;
    CUresult r = gb_cu->cuMemAlloc(out, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        size_t free_b = 0, total_b = 0;
        gb_cu->cuMemGetInfo(&free_b, &total_b);
        return gb_error_set(GB_ERR_DEVICE_OOM,
                            "out of device memory: asked for %.2f GiB with %.2f GiB free of %.2f GiB",
                            bytes / 1073741824.0, free_b / 1073741824.0, total_b / 1073741824.0);
    }
    if (r != CUDA_SUCCESS)
        return gb_cuda_fail(r, "cuMemAlloc", __FILE__, __LINE__);
    return GB_OK;
}

void gb_gpu_free(struct gb_gpu *g, CUdeviceptr p)
{
    (void)g;
    if (p && gb_cu)
        gb_cu->cuMemFree(p);
}

/* A grid that covers the device a few times over for grid-stride loops. */
static unsigned gb_util_grid(const struct gb_gpu *g, size_t n)
{
    size_t blocks = (n + 255) / 256;
    size_t cap = (size_t)g->info.sm_count * 8;
    return (unsigned)(blocks < cap ? (blocks ? blocks : 1) : cap);
}

enum gb_status gb_gpu_util_run(struct gb_gpu *g, const char *kernel, size_t n, void **args)
{
    CUfunction f;
    enum gb_status st = gb_gpu_function(g->util, kernel, &f);
    if (st != GB_OK)
        return st;
    return gb_gpu_launch(g, f, gb_util_grid(g, n), 1, 1, 256, 1, 1, 0, args);
}

enum gb_status gb_gpu_fill_random(struct gb_gpu *g, CUdeviceptr p, size_t n_words, uint32_t seed)
{
    unsigned long long n = n_words;
    void *args[] = {&p, &n, &seed};
    return gb_gpu_util_run(g, "gb_fill_random", n_words, args);
}

enum gb_status gb_gpu_fill_u32(struct gb_gpu *g, CUdeviceptr p, size_t n_words, uint32_t value)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(p, value, n_words, g->stream));
out:
    return st;
}

/* Runs a reduction helper into the scratch word and reads it back. */
static enum gb_status gb_util_reduce(struct gb_gpu *g, const char *kernel, size_t n, void **args,
                                     uint64_t *result)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(g->scratch, 0, 2, g->stream));
    st = gb_gpu_util_run(g, kernel, n, args);
    if (st != GB_OK)
        goto out;
    st = gb_gpu_sync(g);
    if (st != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(result, g->scratch, sizeof *result));
out:
    return st;
}

enum gb_status gb_gpu_count_diff(struct gb_gpu *g, CUdeviceptr a, CUdeviceptr b, size_t n_words,
                                 uint64_t *n_diff)
{
    unsigned long long n = n_words;
    void *args[] = {&a, &b, &n, &g->scratch};
    return gb_util_reduce(g, "gb_count_diff", n_words, args, n_diff);
}

enum gb_status gb_gpu_count_diff_fill(struct gb_gpu *g, CUdeviceptr p, size_t n_words, uint32_t seed,
                                      uint64_t *n_diff)
{
    unsigned long long n = n_words;
    void *args[] = {&p, &n, &seed, &g->scratch};
    return gb_util_reduce(g, "gb_count_diff_fill", n_words, args, n_diff);
}

enum gb_status gb_gpu_sum_u32(struct gb_gpu *g, CUdeviceptr p, size_t n_words, uint64_t *sum)
{
    unsigned long long n = n_words;
    void *args[] = {&p, &n, &g->scratch};
    return gb_util_reduce(g, "gb_sum_u32", n_words, args, sum);
}
