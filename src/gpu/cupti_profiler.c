/* cupti_profiler.c - CUPTI's range profiler and profiler host API, opened
 * at run time (gpu/cupti_profiler.h). The headers are compiled with an
 * empty <string> (src/gpu/cxx_shim): cupti_profiler_host.h includes the
 * C++ header although it declares only C. */
#include "gpu/cupti_profiler.h"

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cupti.h"

#define GB_PROF_FUNCS(X)                                                                        \
    X(cuptiGetResultString) X(cuptiGetVersion) X(cuptiProfilerInitialize)                     \
    X(cuptiDeviceGetChipName) X(cuptiProfilerGetCounterAvailability)                           \
    X(cuptiProfilerHostInitialize) X(cuptiProfilerHostDeinitialize)                            \
    X(cuptiProfilerHostConfigAddMetrics) X(cuptiProfilerHostGetConfigImageSize)                \
    X(cuptiProfilerHostGetConfigImage) X(cuptiProfilerHostGetNumOfPasses)                      \
    X(cuptiProfilerHostEvaluateToGpuValues) X(cuptiRangeProfilerEnable)                        \
    X(cuptiRangeProfilerDisable) X(cuptiRangeProfilerGetCounterDataSize)                       \
    X(cuptiRangeProfilerCounterDataImageInitialize) X(cuptiRangeProfilerSetConfig)             \
    X(cuptiRangeProfilerStart) X(cuptiRangeProfilerStop) X(cuptiRangeProfilerDecodeData)       \
    X(cuptiRangeProfilerGetCounterDataInfo)

static struct {
#define GB_PROF_MEMBER(name) __typeof__(&name) name;
    GB_PROF_FUNCS(GB_PROF_MEMBER)
#undef GB_PROF_MEMBER
} pf;

#define GB_PROF_MAX_RANGES 128

/* What a metric list costs on the host (its probe, the host object, the
 * config image): built once per device and list and kept for the process,
 * since a sweep profiles every point with the same list. */
struct gb_prof_host {
    int ordinal, drop_unknown;
    int users;                       /* open profilers on it: it is not replaced while any is */
    int cached;                      /* in gb_prof_hosts (else freed with its last profiler) */
    CUpti_Profiler_Host_Object *host;
    uint8_t *avail, *config;
    size_t config_size, passes;
    const char **names, **dropped;   /* point into `store` */
    char **store;                    /* copies of every name given */
    size_t n, n_dropped, n_given;
};

#define GB_PROF_HOSTS 4
static struct gb_prof_host *gb_prof_hosts[GB_PROF_HOSTS];

struct gb_profiler {
    struct gb_gpu *g;
    struct gb_prof_host *h;          /* kept in gb_prof_hosts, not owned */
    CUpti_RangeProfiler_Object *obj;
    uint8_t *data;
    size_t data_size;
    enum gb_profiler_replay replay;
    int armed;                       /* the counter data image holds no decoded range yet */
};

/* ---- the trace of calls ---- */

static char gb_trace_lines[64][160];
static unsigned gb_trace_next;

static void gb_trace(const char *call, CUptiResult r)
{
    const char *s = NULL;
    if (pf.cuptiGetResultString)
        pf.cuptiGetResultString(r, &s);
    char *line = gb_trace_lines[gb_trace_next++ % 64];
    snprintf(line, sizeof gb_trace_lines[0], "%s -> %d (%s)", call, (int)r,
             s ? s : r == CUPTI_SUCCESS ? "CUPTI_SUCCESS" : "?");
    if (getenv("GPUBOUND_CUPTI_TRACE"))   /* as it happens, for a crash inside CUPTI */
        fprintf(stderr, "cupti: %s\n", line);
}

void gb_profiler_trace(char *buf, size_t n)
{
    size_t len = 0;
    unsigned first = gb_trace_next > 64 ? gb_trace_next - 64 : 0;
    buf[0] = '\0';
    for (unsigned i = first; i < gb_trace_next && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s\n", gb_trace_lines[i % 64]);
}

/* A failed call as a status: what to do about the refusals a user can fix. */
static enum gb_status gb_prof_fail(const char *call, CUptiResult r)
{
    const char *s = NULL;
    if (pf.cuptiGetResultString)
        pf.cuptiGetResultString(r, &s);
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        return gb_error_set(GB_ERR_UNSUPPORTED,
                            "profiling the GPU's counters is not permitted for this user (%s: %s, "
                            "ERR_NVGPUCTRPERM); run as root, or load the driver with "
                            "NVreg_RestrictProfilingToAdminUsers=0 (see "
                            "https://developer.nvidia.com/ERR_NVGPUCTRPERM)", call, s ? s : "?");
    if (r == CUPTI_ERROR_INVALID_METRIC_NAME)
        return gb_error_set(GB_ERR_USAGE, "%s: %s", call, s ? s : "invalid metric name");
    return gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI %s failed: %s (%d)", call, s ? s : "unknown error", (int)r);
}

/* Calls a CUPTI function whose parameters `p` were set; on failure sets
 * `st` and leaves through `out`. */
#define GB_PROF_CALL(st, fn, p)                                                                \
    do {                                                                                       \
        CUptiResult gb__r = pf.fn(p);                                                          \
        gb_trace(#fn, gb__r);                                                                  \
        if (gb__r != CUPTI_SUCCESS) {                                                          \
            (st) = gb_prof_fail(#fn, gb__r);                                                   \
            goto out;                                                                          \
        }                                                                                      \
    } while (0)

static enum gb_status gb_prof_load(void)
{
    static int tried;
    static enum gb_status state;
    static char msg[256];
    if (tried)
        return state == GB_OK ? GB_OK : gb_error_set(state, "%s", msg);
    tried = 1;
    state = GB_ERR_UNSUPPORTED;
    void *lib = gb_cupti_dlopen();
    if (!lib) {
        snprintf(msg, sizeof msg, "CUPTI not found (libcupti.so.13 or .12); install the CUDA toolkit's "
                                  "CUPTI or set CUDA_HOME to the toolkit; counters are not collected");
        return gb_error_set(state, "%s", msg);
    }
#define GB_PROF_LOAD(name)                                                                     \
    if (!(*(void **)&pf.name = dlsym(lib, #name))) {                                           \
        snprintf(msg, sizeof msg, "this CUPTI lacks %s (the range profiler came with CUDA 12.6); " \
                 "install a CUDA 12.6 or newer toolkit; counters are not collected", #name);   \
        return gb_error_set(state, "%s", msg);                                                 \
    }
    GB_PROF_FUNCS(GB_PROF_LOAD)
#undef GB_PROF_LOAD
    CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUptiResult r = pf.cuptiProfilerInitialize(&ip);
    gb_trace("cuptiProfilerInitialize", r);
    if (r != CUPTI_SUCCESS) {
        gb_prof_fail("cuptiProfilerInitialize", r);
        snprintf(msg, sizeof msg, "%s", gb_error_message());
        return gb_error_set(state, "%s", msg);
    }
    state = GB_OK;
    return GB_OK;
}

/* The chip's name and the context's counter availability image. */
static enum gb_status gb_prof_chip(struct gb_prof_host *p, struct gb_gpu *g, const char **chip)
{
    enum gb_status st = GB_OK;
    CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                          .deviceIndex = (size_t)g->info.ordinal};
    CUpti_Profiler_GetCounterAvailability_Params ca = {
        .structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE, .ctx = g->ctx};
    GB_PROF_CALL(st, cuptiDeviceGetChipName, &cn);
    *chip = cn.pChipName;
    GB_PROF_CALL(st, cuptiProfilerGetCounterAvailability, &ca);
    if (!(p->avail = malloc(ca.counterAvailabilityImageSize ? ca.counterAvailabilityImageSize : 1)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    ca.pCounterAvailabilityImage = p->avail;
    GB_PROF_CALL(st, cuptiProfilerGetCounterAvailability, &ca);
out:
    return st;
}

/* Adds `names` to the host object's configuration. */
static CUptiResult gb_prof_add(struct gb_prof_host *p, const char **names, size_t n)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params am = {
        .structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE, .pHostObject = p->host,
        .ppMetricNames = names, .numMetrics = n};
    CUptiResult r = pf.cuptiProfilerHostConfigAddMetrics(&am);
    gb_trace("cuptiProfilerHostConfigAddMetrics", r);
    return r;
}

static enum gb_status gb_prof_host_init(struct gb_prof_host *p, const char *chip)
{
    enum gb_status st = GB_OK;
    CUpti_Profiler_Host_Initialize_Params hi = {
        .structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE,
        .profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER, .pChipName = chip,
        .pCounterAvailabilityImage = p->avail};
    GB_PROF_CALL(st, cuptiProfilerHostInitialize, &hi);
    p->host = hi.pHostObject;
out:
    return st;
}

/* Each metric alone in a scratch host object, so that the one the chip
 * does not know is named (or dropped); then the kept ones together. */
static enum gb_status gb_prof_metrics(struct gb_prof_host *p, const char *chip, int drop_unknown)
{
    enum gb_status st = GB_OK;
    CUpti_Profiler_Host_Object *keep = p->host;
    for (size_t i = 0; i < p->n_given; i++) {
        const char *one = p->store[i];
        if ((st = gb_prof_host_init(p, chip)) != GB_OK)
            break;
        CUptiResult r = gb_prof_add(p, &one, 1);
        CUpti_Profiler_Host_Deinitialize_Params hd = {
            .structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE, .pHostObject = p->host};
        gb_trace("cuptiProfilerHostDeinitialize", pf.cuptiProfilerHostDeinitialize(&hd));
        p->host = NULL;
        if (r == CUPTI_SUCCESS)
            p->names[p->n++] = one;
        else if (r == CUPTI_ERROR_INVALID_METRIC_NAME && drop_unknown)
            p->dropped[p->n_dropped++] = one;
        else if (r == CUPTI_ERROR_INVALID_METRIC_NAME)
            st = gb_error_set(GB_ERR_USAGE, "metric '%s' is not known on this GPU (%s); list the "
                              "metrics with 'ncu --query-metrics'", one, chip);
        else
            st = gb_prof_fail("cuptiProfilerHostConfigAddMetrics", r);
        if (st != GB_OK)
            break;
    }
    p->host = keep;
    if (st == GB_OK && p->n == 0)
        st = gb_error_set(GB_ERR_UNSUPPORTED, "none of the metrics is known on this GPU (%s)", chip);
    if (st == GB_OK && (st = gb_prof_host_init(p, chip)) == GB_OK) {
        CUptiResult r = gb_prof_add(p, p->names, p->n);
        if (r != CUPTI_SUCCESS)
            st = gb_prof_fail("cuptiProfilerHostConfigAddMetrics", r);
    }
    return st;
}

static enum gb_status gb_prof_config(struct gb_prof_host *p)
{
    enum gb_status st = GB_OK;
    CUpti_Profiler_Host_GetConfigImageSize_Params cs = {
        .structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE, .pHostObject = p->host};
    GB_PROF_CALL(st, cuptiProfilerHostGetConfigImageSize, &cs);
    p->config_size = cs.configImageSize;
    if (!(p->config = malloc(p->config_size ? p->config_size : 1)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    CUpti_Profiler_Host_GetConfigImage_Params ci = {
        .structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE, .pHostObject = p->host,
        .configImageSize = p->config_size, .pConfigImage = p->config};
    GB_PROF_CALL(st, cuptiProfilerHostGetConfigImage, &ci);
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        .structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE,
        .configImageSize = p->config_size, .pConfigImage = p->config};
    GB_PROF_CALL(st, cuptiProfilerHostGetNumOfPasses, &np);
    p->passes = np.numOfPasses;
out:
    return st;
}

/* A fresh counter data image and the configuration that writes into it:
 * before the first collection and after each one is read. */
static enum gb_status gb_prof_arm(struct gb_profiler *p)
{
    enum gb_status st = GB_OK;
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params di = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE,
        .pRangeProfilerObject = p->obj, .counterDataSize = p->data_size, .pCounterData = p->data};
    GB_PROF_CALL(st, cuptiRangeProfilerCounterDataImageInitialize, &di);
    CUpti_RangeProfiler_SetConfig_Params sc = {
        .structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE, .pRangeProfilerObject = p->obj,
        .configSize = p->h->config_size, .pConfig = p->h->config, .counterDataImageSize = p->data_size,
        .pCounterDataImage = p->data, .range = CUPTI_AutoRange,
        .replayMode = p->replay == GB_PROFILER_USER_REPLAY ? CUPTI_UserReplay : CUPTI_KernelReplay,
        .maxRangesPerPass = GB_PROF_MAX_RANGES, .numNestingLevels = 1, .minNestingLevel = 1,
        .passIndex = 0, .targetNestingLevel = 1};
    GB_PROF_CALL(st, cuptiRangeProfilerSetConfig, &sc);
    p->armed = 1;
out:
    return st;
}

/* The range profiler on the context, its counter data image, its config. */
static enum gb_status gb_prof_target(struct gb_profiler *p)
{
    enum gb_status st = GB_OK;
    CUpti_RangeProfiler_Enable_Params en = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE,
                                            .ctx = p->g->ctx};
    GB_PROF_CALL(st, cuptiRangeProfilerEnable, &en);
    p->obj = en.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params ds = {
        .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE,
        .pRangeProfilerObject = p->obj, .pMetricNames = p->h->names, .numMetrics = p->h->n,
        .maxNumOfRanges = GB_PROF_MAX_RANGES, .maxNumRangeTreeNodes = GB_PROF_MAX_RANGES};
    GB_PROF_CALL(st, cuptiRangeProfilerGetCounterDataSize, &ds);
    p->data_size = ds.counterDataSize;
    if (!(p->data = malloc(p->data_size ? p->data_size : 1)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    st = gb_prof_arm(p);
out:
    return st;
}

/* Frees a host part (not in the cache any more). */
static void gb_prof_host_free(struct gb_prof_host *h)
{
    if (!h)
        return;
    if (h->host) {
        CUpti_Profiler_Host_Deinitialize_Params hd = {
            .structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE, .pHostObject = h->host};
        gb_trace("cuptiProfilerHostDeinitialize", pf.cuptiProfilerHostDeinitialize(&hd));
    }
    for (size_t i = 0; h->store && i < h->n_given; i++)
        free(h->store[i]);
    free(h->store);
    free((void *)h->names);
    free((void *)h->dropped);
    free(h->avail);
    free(h->config);
    free(h);
}

/* The cached host part for this device, list and rule, or NULL. */
static struct gb_prof_host *gb_prof_host_find(int ordinal, char *const *names, size_t n, int drop_unknown)
{
    for (int i = 0; i < GB_PROF_HOSTS; i++) {
        struct gb_prof_host *h = gb_prof_hosts[i];
        if (!h || h->ordinal != ordinal || h->drop_unknown != drop_unknown || h->n_given != n)
            continue;
        size_t k = 0;
        while (k < n && strcmp(h->store[k], names[k]) == 0)
            k++;
        if (k == n)
            return h;
    }
    return NULL;
}

/* Builds the host part of a metric list: the probe of each name, the host
 * object and the config image. */
static enum gb_status gb_prof_host_build(struct gb_gpu *g, char *const *names, size_t n, int drop_unknown,
                                         struct gb_prof_host **out)
{
    enum gb_status st;
    const char *chip = NULL;
    struct gb_prof_host *h = calloc(1, sizeof *h);
    *out = NULL;
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    h->ordinal = g->info.ordinal;
    h->drop_unknown = drop_unknown;
    if (!(h->store = calloc(n ? n : 1, sizeof *h->store)) || !(h->names = calloc(n ? n : 1, sizeof *h->names)) ||
        !(h->dropped = calloc(n ? n : 1, sizeof *h->dropped))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    for (; h->n_given < n; h->n_given++)
        if (!(h->store[h->n_given] = strdup(names[h->n_given]))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out;
        }
    if ((st = gb_prof_chip(h, g, &chip)) == GB_OK && (st = gb_prof_metrics(h, chip, drop_unknown)) == GB_OK)
        st = gb_prof_config(h);
out:
    if (st == GB_OK)
        *out = h;
    else
        gb_prof_host_free(h);
    return st;
}

/* The host part for the list: from the cache, or built and cached in an
 * empty slot or in place of one no open profiler uses (when every slot is
 * in use, it is not cached and goes with its profiler). */
static enum gb_status gb_prof_host_get(struct gb_gpu *g, char *const *names, size_t n, int drop_unknown,
                                       struct gb_prof_host **out)
{
    if (!(*out = gb_prof_host_find(g->info.ordinal, names, n, drop_unknown))) {
        enum gb_status st = gb_prof_host_build(g, names, n, drop_unknown, out);
        if (st != GB_OK)
            return st;
        for (int i = 0; i < GB_PROF_HOSTS && !(*out)->cached; i++)
            if (!gb_prof_hosts[i] || gb_prof_hosts[i]->users == 0) {
                gb_prof_host_free(gb_prof_hosts[i]);
                gb_prof_hosts[i] = *out;
                (*out)->cached = 1;
            }
    }
    (*out)->users++;
    return GB_OK;
}

enum gb_status gb_profiler_open(struct gb_gpu *g, char *const *names, size_t n, int drop_unknown,
                                enum gb_profiler_replay replay, struct gb_profiler **out)
{
    enum gb_status st;
    struct gb_profiler *p = calloc(1, sizeof *p);
    *out = p;
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->g = g;
    p->replay = replay;
    if ((st = gb_prof_load()) != GB_OK || (st = gb_prof_host_get(g, names, n, drop_unknown, &p->h)) != GB_OK)
        return st;
    return gb_prof_target(p);
}

size_t gb_profiler_metrics(const struct gb_profiler *p, const char *const **names)
{
    *names = p->h->names;
    return p->h->n;
}

size_t gb_profiler_dropped(const struct gb_profiler *p, const char *const **names)
{
    *names = p->h->dropped;
    return p->h->n_dropped;
}

size_t gb_profiler_passes(const struct gb_profiler *p)
{
    return p->h->passes;
}

/* The decoded ranges' values, one row per range. */
static enum gb_status gb_prof_evaluate(struct gb_profiler *p, double **values, size_t *n_ranges)
{
    enum gb_status st = GB_OK;
    double *v = NULL;
    CUpti_RangeProfiler_GetCounterDataInfo_Params gi = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE,
        .pCounterDataImage = p->data, .counterDataImageSize = p->data_size};
    GB_PROF_CALL(st, cuptiRangeProfilerGetCounterDataInfo, &gi);
    if (gi.numTotalRanges == 0 || gi.numTotalRanges > GB_PROF_MAX_RANGES) {
        st = gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI decoded %zu ranges (1 to %d expected: one per "
                          "kernel of the launch)", gi.numTotalRanges, GB_PROF_MAX_RANGES);
        goto out;
    }
    if (!(v = calloc(gi.numTotalRanges * p->h->n, sizeof *v))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    for (size_t r = 0; r < gi.numTotalRanges; r++) {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE,
            .pHostObject = p->h->host, .pCounterDataImage = p->data, .counterDataImageSize = p->data_size,
            .rangeIndex = r, .ppMetricNames = p->h->names, .numMetrics = p->h->n,
            .pMetricValues = v + r * p->h->n};
        GB_PROF_CALL(st, cuptiProfilerHostEvaluateToGpuValues, &ev);
    }
    *values = v;
    *n_ranges = gi.numTotalRanges;
    v = NULL;
out:
    free(v);
    return st;
}

enum gb_status gb_profiler_start(struct gb_profiler *p)
{
    enum gb_status st = GB_OK;
    CUpti_RangeProfiler_Start_Params sp = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE,
                                           .pRangeProfilerObject = p->obj};
    if (!p->armed && (st = gb_prof_arm(p)) != GB_OK)
        return st;
    GB_PROF_CALL(st, cuptiRangeProfilerStart, &sp);
out:
    return st;
}

enum gb_status gb_profiler_stop(struct gb_profiler *p, int *all_submitted)
{
    enum gb_status st = GB_OK;
    CUpti_RangeProfiler_Stop_Params tp = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE,
                                          .pRangeProfilerObject = p->obj};
    GB_PROF_CALL(st, cuptiRangeProfilerStop, &tp);
    *all_submitted = tp.isAllPassSubmitted != 0;
out:
    return st;
}

enum gb_status gb_profiler_read(struct gb_profiler *p, double **values, size_t *n_ranges)
{
    enum gb_status st = GB_OK;
    CUpti_RangeProfiler_DecodeData_Params dd = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE,
                                                .pRangeProfilerObject = p->obj};
    *values = NULL;
    *n_ranges = 0;
    if ((st = gb_gpu_sync(p->g)) != GB_OK)
        return st;
    p->armed = 0;
    GB_PROF_CALL(st, cuptiRangeProfilerDecodeData, &dd);
    if (dd.numOfRangeDropped) {
        st = gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI dropped %zu ranges (more than %d kernels in one "
                          "collection)", dd.numOfRangeDropped, GB_PROF_MAX_RANGES);
        goto out;
    }
    st = gb_prof_evaluate(p, values, n_ranges);
out:
    return st;
}

/* The passes of one collection: kernel replay submits them all in one
 * Start/Stop; user replay needs the work once per pass. */
static enum gb_status gb_prof_passes(struct gb_profiler *p, enum gb_status (*before_pass)(void *ctx),
                                     enum gb_status (*work)(void *ctx), void *ctx)
{
    enum gb_status st = GB_OK;
    int all = 0;
    for (size_t pass = 0; !all && st == GB_OK; pass++) {
        if (pass >= p->h->passes)
            return gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI asked for more than the %zu passes its "
                                "configuration needs; the launch cannot be profiled", p->h->passes);
        if (before_pass && (st = before_pass(ctx)) != GB_OK)
            break;
        if ((st = gb_profiler_start(p)) != GB_OK)
            break;
        enum gb_status wst = work(ctx);
        st = gb_profiler_stop(p, &all);
        if (wst != GB_OK)
            return wst;
        if (st == GB_OK && !all && p->replay == GB_PROFILER_KERNEL_REPLAY)
            st = gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI's kernel replay left passes unsubmitted after "
                              "the launch; the launch's kernels cannot be replayed");
    }
    return st;
}

enum gb_status gb_profiler_collect(struct gb_profiler *p, enum gb_status (*before_pass)(void *ctx),
                                   enum gb_status (*work)(void *ctx), void *ctx, double **values,
                                   size_t *n_ranges)
{
    enum gb_status st = gb_prof_passes(p, before_pass, work, ctx);
    *values = NULL;
    *n_ranges = 0;
    return st == GB_OK ? gb_profiler_read(p, values, n_ranges) : st;
}

void gb_profiler_close(struct gb_profiler *p)
{
    if (!p)
        return;
    if (p->obj) {
        CUpti_RangeProfiler_Disable_Params d = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE,
                                                .pRangeProfilerObject = p->obj};
        gb_trace("cuptiRangeProfilerDisable", pf.cuptiRangeProfilerDisable(&d));
    }
    if (p->h && --p->h->users == 0 && !p->h->cached)
        gb_prof_host_free(p->h);
    free(p->data);
    free(p);
}
