/* cupti.c - kernel, copy and set timestamps through CUPTI's activity API
 * (cupti.h). libcupti is opened with dlopen; nothing links it. */
#include "gpu/cupti.h"

#include <cupti.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GB_CUPTI_FUNCS(X) \
    X(cuptiGetVersion) X(cuptiGetResultString) X(cuptiActivityRegisterCallbacks) \
    X(cuptiActivityEnable) X(cuptiActivityDisable) X(cuptiActivityFlushAll) \
    X(cuptiActivityGetNextRecord) X(cuptiActivityGetNumDroppedRecords) X(cuptiGetStreamIdEx) \
    X(cuptiFinalize)

static struct {
#define GB_CUPTI_MEMBER(name) __typeof__(&name) name;
    GB_CUPTI_FUNCS(GB_CUPTI_MEMBER)
#undef GB_CUPTI_MEMBER
} cp;

#define GB_CUPTI_BUFFER (4u << 20)
#define GB_CUPTI_POOL 8

/* Buffers CUPTI gave back, kept for its next request: a forced flush
 * returns the buffer in use at every collect, and a fresh one would cost
 * its page faults inside the next launch. */
static struct {
    pthread_mutex_t lock;
    uint8_t *free[GB_CUPTI_POOL];
    int n;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* What the buffer callbacks collect, under `lock`: they may run on a
 * thread of CUPTI's own. */
static struct {
    pthread_mutex_t lock;
    struct gb_gpu_op *ops;
    size_t n, cap;
    size_t dropped;
    int nomem;                   /* an operation could not be stored */
} col = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int cp_active;
static char cp_skip[64];
static const CUpti_ActivityKind cp_kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET};

void *gb_cupti_dlopen(void)
{
    /* The versioned names first; then the toolkit's folders, often not in
     * the loader's path (CUPTI lives in extras/CUPTI in older layouts). */
    static const char *const names[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
    static const char *const dirs[] = {"lib64", "lib", "extras/CUPTI/lib64"};
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    char path[1024];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib)
            return lib;
    }
    for (size_t h = 0; h < sizeof homes / sizeof homes[0]; h++)
        for (size_t d = 0; homes[h] && homes[h][0] && d < sizeof dirs / sizeof dirs[0]; d++)
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
                snprintf(path, sizeof path, "%s/%s/%s", homes[h], dirs[d], names[i]);
                void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
                if (lib)
                    return lib;
            }
    return NULL;
}

static enum gb_status gb_cupti_load(void)
{
    static int tried;
    static enum gb_status state = GB_ERR_UNSUPPORTED;
    static char msg[256];
    if (tried)
        return state == GB_OK ? GB_OK : gb_error_set(state, "%s", msg);
    tried = 1;
    void *lib = gb_cupti_dlopen();
    if (!lib) {
        snprintf(msg, sizeof msg, "CUPTI not found (libcupti.so.13 or .12; set CUDA_HOME to the toolkit)");
        return gb_error_set(state, "%s", msg);
    }
#define GB_CUPTI_LOAD(name)                                                          \
    if (!(*(void **)&cp.name = dlsym(lib, #name))) {                                 \
        snprintf(msg, sizeof msg, "CUPTI lacks %s; install a CUDA 12 or newer toolkit", #name); \
        return gb_error_set(state, "%s", msg);                                       \
    }
    GB_CUPTI_FUNCS(GB_CUPTI_LOAD)
#undef GB_CUPTI_LOAD
    uint32_t v = 0;
    if (cp.cuptiGetVersion(&v) != CUPTI_SUCCESS || v < 18) {
        /* Activity records follow the layout of the headers built with;
         * their leading fields (start, end, stream) hold since API 18. */
        snprintf(msg, sizeof msg, "CUPTI API version %u is too old (18 or newer needed)", v);
        return gb_error_set(state, "%s", msg);
    }
    state = GB_OK;
    return GB_OK;
}

static enum gb_status gb_cupti_fail(CUptiResult r, const char *call)
{
    const char *s = NULL;
    if (cp.cuptiGetResultString)
        cp.cuptiGetResultString(r, &s);
    return gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI %s failed: %s", call, s ? s : "unknown error");
}

static void CUPTIAPI gb_cupti_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    pthread_mutex_lock(&pool.lock);
    *buffer = pool.n ? pool.free[--pool.n] : NULL;
    pthread_mutex_unlock(&pool.lock);
    if (!*buffer)
        *buffer = aligned_alloc(8, GB_CUPTI_BUFFER);
    *size = *buffer ? GB_CUPTI_BUFFER : 0;
    *max_records = 0;
}

static void gb_cupti_store(const struct gb_gpu_op *op)
{
    if (col.n == col.cap) {
        size_t cap = col.cap ? col.cap * 2 : 4096;
        struct gb_gpu_op *p = realloc(col.ops, cap * sizeof *p);
        if (!p) {
            col.nomem = 1;
            return;
        }
        col.ops = p;
        col.cap = cap;
    }
    col.ops[col.n++] = *op;
}

/* One activity record as an operation; 0 for kinds that are not one. */
static int gb_cupti_op(const CUpti_Activity *rec, struct gb_gpu_op *op)
{
    memset(op, 0, sizeof *op);
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        *op = (struct gb_gpu_op){k->start, k->end, k->streamId, 'k', 0};
        op->skipped = cp_skip[0] && k->name && strncmp(k->name, cp_skip, strlen(cp_skip)) == 0;
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
        const CUpti_ActivityMemcpy6 *c = (const CUpti_ActivityMemcpy6 *)rec;
        *op = (struct gb_gpu_op){c->start, c->end, c->streamId, 'c', 0};
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
        const CUpti_ActivityMemset4 *s = (const CUpti_ActivityMemset4 *)rec;
        *op = (struct gb_gpu_op){s->start, s->end, s->streamId, 's', 0};
    } else {
        return 0;
    }
    return 1;
}

static void gb_cupti_buffer_keep(uint8_t *buffer)
{
    pthread_mutex_lock(&pool.lock);
    if (pool.n < GB_CUPTI_POOL) {
        pool.free[pool.n++] = buffer;
        buffer = NULL;
    }
    pthread_mutex_unlock(&pool.lock);
    free(buffer);
}

static void CUPTIAPI gb_cupti_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                               size_t size, size_t valid)
{
    CUpti_Activity *rec = NULL;
    struct gb_gpu_op op;
    size_t dropped = 0;
    pthread_mutex_lock(&col.lock);
    while (valid && cp.cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS)
        if (gb_cupti_op(rec, &op))
            gb_cupti_store(&op);
    if (cp.cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        col.dropped += dropped;
    pthread_mutex_unlock(&col.lock);
    (void)size;
    gb_cupti_buffer_keep(buffer);
}

enum gb_status gb_cupti_start(const char *skip_prefix)
{
    if (cp_active)
        return GB_OK;
    enum gb_status st = gb_cupti_load();
    if (st != GB_OK)
        return st;
    snprintf(cp_skip, sizeof cp_skip, "%s", skip_prefix ? skip_prefix : "");
    /* Registered once: a start after gb_cupti_stop only enables the kinds
     * again. */
    static int registered;
    CUptiResult r;
    if (!registered) {
        r = cp.cuptiActivityRegisterCallbacks(gb_cupti_buffer_requested, gb_cupti_buffer_completed);
        if (r != CUPTI_SUCCESS)
            return gb_cupti_fail(r, "cuptiActivityRegisterCallbacks");
        registered = 1;
    }
    for (size_t i = 0; i < sizeof cp_kinds / sizeof cp_kinds[0]; i++) {
        if ((r = cp.cuptiActivityEnable(cp_kinds[i])) != CUPTI_SUCCESS) {
            for (size_t j = 0; j < i; j++)
                cp.cuptiActivityDisable(cp_kinds[j]);
            return gb_cupti_fail(r, "cuptiActivityEnable");
        }
    }
    cp_active = 1;
    return GB_OK;
}

int gb_cupti_active(void)
{
    return cp_active;
}

enum gb_status gb_cupti_stream_id(CUcontext ctx, CUstream stream, uint32_t *id)
{
    if (!cp_active)
        return gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI is not collecting");
    CUptiResult r = cp.cuptiGetStreamIdEx(ctx, stream, 0, id);
    return r == CUPTI_SUCCESS ? GB_OK : gb_cupti_fail(r, "cuptiGetStreamIdEx");
}

static int gb_op_cmp(const void *a, const void *b)
{
    const struct gb_gpu_op *x = a, *y = b;
    return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

enum gb_status gb_cupti_take(uint32_t stream, struct gb_gpu_op **ops, size_t *n, size_t *dropped)
{
    *ops = NULL;
    *n = 0;
    *dropped = 0;
    if (!cp_active)
        return gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI is not collecting");
    CUptiResult r = cp.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (r != CUPTI_SUCCESS)
        return gb_cupti_fail(r, "cuptiActivityFlushAll");
    enum gb_status st = GB_OK;
    pthread_mutex_lock(&col.lock);
    size_t k = 0;
    for (size_t i = 0; i < col.n; i++)
        if (col.ops[i].stream == stream)
            k++;
    struct gb_gpu_op *out = k ? malloc(k * sizeof *out) : NULL;
    if (col.nomem || (k && !out)) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory keeping the GPU's timestamps");
    } else {
        for (size_t i = 0, j = 0; i < col.n; i++)
            if (col.ops[i].stream == stream)
                out[j++] = col.ops[i];
        *dropped = col.dropped;
    }
    col.n = 0;
    col.dropped = 0;
    col.nomem = 0;
    pthread_mutex_unlock(&col.lock);
    if (st != GB_OK) {
        free(out);
        return st;
    }
    if (k)
        qsort(out, k, sizeof *out, gb_op_cmp);
    *ops = out;
    *n = k;
    return GB_OK;
}

enum gb_status gb_cupti_discard(void)
{
    struct gb_gpu_op *ops;
    size_t n, dropped;
    enum gb_status st = gb_cupti_take(0, &ops, &n, &dropped);
    free(ops);
    return st;
}

void gb_cupti_stop(void)
{
    if (!cp_active)
        return;
    cp.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    for (size_t i = 0; i < sizeof cp_kinds / sizeof cp_kinds[0]; i++)
        cp.cuptiActivityDisable(cp_kinds[i]);
    cp_active = 0;
    pthread_mutex_lock(&col.lock);
    free(col.ops);
    col.ops = NULL;
    col.n = col.cap = col.dropped = 0;
    pthread_mutex_unlock(&col.lock);
    pthread_mutex_lock(&pool.lock);
    while (pool.n)
        free(pool.free[--pool.n]);
    pthread_mutex_unlock(&pool.lock);
}
