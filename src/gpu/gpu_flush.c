/* gpu_flush.c - the L2 flush between cold samples: the methods, the flush
 * buffer, and the code flush of the instruction caches. */
#include <stdlib.h>
#include <string.h>

#include "gpubound/gpu.h"
#include "gpu/cupti.h"
#include "gpu/gpu_internal.h"

static const char *const gb_flush_names[] = {"read", "write", "write-read", "read-last", "empty"};

const char *gb_flush_method_name(enum gb_flush_method m)
{
    return (unsigned)m < sizeof gb_flush_names / sizeof gb_flush_names[0] ? gb_flush_names[m] : "?";
}

int gb_flush_method_parse(const char *s)
{
    for (size_t i = 0; i < sizeof gb_flush_names / sizeof gb_flush_names[0]; i++)
        if (strcmp(s, gb_flush_names[i]) == 0)
            return (int)i;
    return -1;
}

/* Writes every line of the flush buffer, with values that change each call. */
static enum gb_status gb_flush_write(struct gb_gpu *g)
{
    static unsigned salt;
    unsigned long long n = g->flush_bytes / 16;
    salt++;
    void *args[] = {&g->flush_buf, &n, &salt};
    return gb_gpu_util_run(g, "gb_flush", (size_t)n, args);
}

/* GB_FLUSH_READ_LAST: runs the evict-last reads with the whole
 * persisting set-aside granted for them, then resets every persisting line
 * to normal and gives the set-aside back. */
static enum gb_status gb_flush_persisting(struct gb_gpu *g, size_t n, void **args)
{
    enum gb_status st = GB_OK;
    size_t old = 0;
    int max = 0;
    GB_CU_CHECK(st, gb_cu->cuDeviceGetAttribute(&max, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE,
                                                g->dev));
    GB_CU_CHECK(st, gb_cu->cuCtxGetLimit(&old, CU_LIMIT_PERSISTING_L2_CACHE_SIZE));
    GB_CU_CHECK(st, gb_cu->cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, (size_t)max));
    if ((st = gb_gpu_util_run(g, "gb_flush_read_last", n, args)) == GB_OK && (st = gb_gpu_sync(g)) == GB_OK) {
        CUresult r = gb_cu->cuCtxResetPersistingL2Cache();
        if (r != CUDA_SUCCESS)
            st = gb_cuda_fail(r, "cuCtxResetPersistingL2Cache()", __FILE__, __LINE__);
    }
    /* The set-aside goes back whatever happened above. */
    CUresult r = gb_cu->cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, old);
    if (r != CUDA_SUCCESS && st == GB_OK)
        st = gb_cuda_fail(r, "cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, old)", __FILE__, __LINE__);
out:
    return st;
}

/* Reads the flush buffer: evict-last (read-last), or plainly
 * GPUBOUND_FLUSH_PASSES times (default once). */
static enum gb_status gb_flush_read(struct gb_gpu *g, int last)
{
    unsigned long long n = g->flush_bytes / 16;
    CUdeviceptr none = 0;
    void *args[] = {&g->flush_buf, &n, &none};
    enum gb_status st = GB_OK;
    if (last)
        return gb_flush_persisting(g, (size_t)n, args);
    const char *e = getenv("GPUBOUND_FLUSH_PASSES");
    int passes = e && atoi(e) > 0 ? atoi(e) : 1;
    for (int i = 0; i < passes && st == GB_OK; i++)
        st = gb_gpu_util_run(g, "gb_flush_read", (size_t)n, args);
    return st;
}

/* GB_FLUSH_EMPTY: every line of the flush buffer out of the L2, unwritten. */
static enum gb_status gb_flush_discard(struct gb_gpu *g)
{
    unsigned long long n = g->flush_bytes / 128;
    void *args[] = {&g->flush_buf, &n};
    return gb_gpu_util_run(g, "gb_flush_discard", (size_t)n, args);
}

/* GB_FLUSH_EMPTY: other code through every SM's instruction caches (four
 * one-warp blocks an SM), from its own module, loaded on first use. */
static enum gb_status gb_flush_code(struct gb_gpu *g)
{
    CUfunction f;
    unsigned int a = 3, b = 7;
    CUdeviceptr none = 0;
    void *args[] = {&a, &b, &none};
    unsigned blocks = (unsigned)(g->info.sm_count > 0 ? g->info.sm_count * 4 : 512);
    enum gb_status st = GB_OK;
    if (!g->flush_code && (st = gb_gpu_module(g, "flush_code.cu", NULL, 0, &g->flush_code)) != GB_OK)
        return st;
    if ((st = gb_gpu_function(g->flush_code, "gb_flush_code", &f)) != GB_OK)
        return st;
    return gb_gpu_launch(g, f, blocks, 1, 1, 32, 1, 1, 0, args);
}

enum gb_status gb_gpu_flush_l2(struct gb_gpu *g, enum gb_flush_method method)
{
    enum gb_status st = GB_OK;
    int reads_only = method == GB_FLUSH_READ || method == GB_FLUSH_READ_LAST || method == GB_FLUSH_EMPTY;
    if (!g->flush_buf) {
        const char *e = getenv("GPUBOUND_FLUSH_SCALE");
        size_t scale = e && atoi(e) > 0 ? (size_t)atoi(e) : 2;
        size_t bytes = (size_t)(g->info.l2_bytes > 0 ? g->info.l2_bytes : (64 << 20)) * scale;
        if ((st = gb_gpu_alloc(g, bytes, &g->flush_buf)) != GB_OK)
            return st;
        g->flush_bytes = bytes;
        /* The reads need defined contents, written once. */
        if (reads_only && (st = gb_flush_write(g)) != GB_OK)
            return st;
    }
    if (!reads_only && (st = gb_flush_write(g)) != GB_OK)
        return st;
    if (method == GB_FLUSH_WRITE)
        return GB_OK;
    if ((st = gb_flush_read(g, method == GB_FLUSH_READ_LAST || method == GB_FLUSH_EMPTY)) != GB_OK ||
        method != GB_FLUSH_EMPTY)
        return st;
    if ((st = gb_flush_discard(g)) != GB_OK)
        return st;
    return gb_flush_code(g);
}
