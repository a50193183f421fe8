/* gpu.c - an opened device: its context and stream, kernel launches, and
 * waiting for the device with a limit. Its memory: gpu_memory.c; its
 * modules: gpu_module.c; flushing its L2: gpu_flush.c. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpubound/gpu.h"
#include "gpu/cupti.h"
#include "gpu/gpu_internal.h"

/* Retains the primary context and makes what gpubound keeps in it: the
 * stream, the helper kernels, the scratch word. */
static enum gb_status gb_gpu_context(struct gb_gpu *g)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuDevicePrimaryCtxRetain(&g->ctx, g->dev));
    GB_CU_CHECK(st, gb_cu->cuCtxSetCurrent(g->ctx));
    GB_CU_CHECK(st, gb_cu->cuStreamCreate(&g->stream, CU_STREAM_NON_BLOCKING));
    st = gb_gpu_module(g, "util.cu", NULL, 0, &g->util);
    if (st != GB_OK)
        goto out;
    st = gb_gpu_alloc(g, 64, &g->scratch);
out:
    return st;
}

enum gb_status gb_gpu_open(int ordinal, struct gb_gpu *g)
{
    enum gb_status st;
    memset(g, 0, sizeof *g);
    st = gb_device_query(ordinal, &g->info);
    if (st != GB_OK)
        return st;
    if (g->info.cc_major < 7)
        return gb_error_set(GB_ERR_NO_GPU, "%s has compute capability %d.%d; gpubound needs 7.0 or later",
                            g->info.name, g->info.cc_major, g->info.cc_minor);
    gb_device_arch(&g->info, g->arch, sizeof g->arch);
    GB_CU_CHECK(st, gb_cu->cuDeviceGet(&g->dev, ordinal));
    st = gb_gpu_context(g);
out:
    if (st != GB_OK)
        gb_gpu_close(g);
    return st;
}

void gb_gpu_close(struct gb_gpu *g)
{
    free(g->compile_log);
    g->compile_log = NULL;
    if (!gb_cu || !g->ctx)
        return;
    if (g->hung) {
        /* A kernel may still run: whatever would wait for it is left to the
         * process's exit, which ends it. */
        gb_gpu_forget_modules(g);
        memset(g, 0, sizeof *g);
        return;
    }
    gb_cu->cuCtxSetCurrent(g->ctx);
    if (g->stream)
        gb_cu->cuStreamSynchronize(g->stream);
    if (g->clock_state_release)
        g->clock_state_release(g);
    if (g->spec_cache_release)
        g->spec_cache_release(g);
    gb_gpu_free(g, g->flush_buf);
    gb_gpu_free(g, g->scratch);
    gb_gpu_unload_modules(g);
    if (g->stream)
        gb_cu->cuStreamDestroy(g->stream);
    gb_cu->cuDevicePrimaryCtxRelease(g->dev);
    memset(g, 0, sizeof *g);
}

enum gb_status gb_gpu_launch(struct gb_gpu *g, CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                             unsigned bx, unsigned by, unsigned bz, unsigned smem_bytes, void **args)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem_bytes, g->stream, args, NULL));
out:
    return st;
}

static double gb_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Polls `query` until it is not CUDA_ERROR_NOT_READY or g->wait_limit_s has
 * passed: the first 50 ms by yielding (as the driver's own synchronisation
 * spins: the GPU gets its next work at once), then in 100 us sleeps. */
static enum gb_status gb_gpu_poll(struct gb_gpu *g, CUresult (*query)(void *), void *obj, const char *what)
{
    double start = gb_now_s(), now;
    CUresult r;
    while ((r = query(obj)) == CUDA_ERROR_NOT_READY) {
        now = gb_now_s();
        if (g->wait_limit_s > 0 && now - start > g->wait_limit_s) {
            g->hung = 1;
            return gb_error_set(GB_ERR_TIMEOUT, "the GPU did not finish within the point's limit of %g s (%s)",
                                g->wait_limit_s, what);
        }
        if (now - start < 0.05) {
            sched_yield();
        } else {
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);
        }
    }
    return r == CUDA_SUCCESS ? GB_OK : gb_cuda_fail(r, what, __FILE__, __LINE__);
}

static CUresult gb_query_stream(void *s)
{
    return gb_cu->cuStreamQuery((CUstream)s);
}

static CUresult gb_query_event(void *e)
{
    return gb_cu->cuEventQuery((CUevent)e);
}

enum gb_status gb_gpu_sync(struct gb_gpu *g)
{
    if (g->hung)
        return gb_error_set(GB_ERR_TIMEOUT, "the GPU is still running a kernel that ran past its limit");
    return gb_gpu_poll(g, gb_query_stream, g->stream, "cuStreamSynchronize");
}

enum gb_status gb_gpu_wait_event(struct gb_gpu *g, CUevent ev)
{
    if (g->hung)
        return gb_error_set(GB_ERR_TIMEOUT, "the GPU is still running a kernel that ran past its limit");
    return gb_gpu_poll(g, gb_query_event, ev, "cuEventSynchronize");
}

enum gb_status gb_gpu_check(struct gb_gpu *g)
{
    if (!gb_cu || !g->ctx)
        return GB_OK; /* nothing open: nothing to lose */
    CUresult r = gb_cu->cuStreamQuery(g->stream);
    return gb_cuda_sticky(r) ? gb_cuda_fail(r, "cuStreamQuery", __FILE__, __LINE__) : GB_OK;
}

int gb_gpu_sm_clock_mhz(const struct gb_gpu *g)
{
    return gb_nvml_sm_clock_mhz(g->info.pci_bus_id);
}

void gb_gpu_driver_release(char *buf, size_t n)
{
    gb_nvml_driver_release(buf, n);
}
