/* compile_pool.c - the plan's modules compiled on host threads ahead of
 * the GPU thread (compile_pool.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure/compile_pool.h"
#include "measure/sampling.h"

#define GB_POOL_MAX_OPTS 16      /* as many options as the harness passes */
#define GB_POOL_MAX_THREADS 64
/* How far the threads may run ahead of the GPU thread, in modules: what
 * they compiled waits in memory until it is taken. */
#define GB_POOL_LOOKAHEAD 64

enum gb_job_state { GB_JOB_PENDING = 0, GB_JOB_RUNNING, GB_JOB_DONE };

struct gb_compile_job {
    char key[GB_MODULE_KEY_LEN];
    const char *name, *source;   /* the bench's, alive as long as the plan */
    /* The program to compile: name and source above, and for benches with
     * kernel_program (spec files) their headers and name expressions. */
    struct gb_nvrtc_program prog;
    char exprs[GB_BENCH_MAX_EXPRS][GB_KERNEL_NAME_LEN];
    char opts[GB_POOL_MAX_OPTS][GB_OPT_LEN];
    int n_opts;
    enum gb_job_state state;
    int handed;                  /* its result went to the GPU thread */
    enum gb_status st;
    struct gb_module_built built;
    char *msg;                   /* the failure's message (malloc'ed) */
};

struct gb_compile_pool {
    pthread_mutex_t lock;
    pthread_cond_t done;         /* a job became GB_JOB_DONE */
    pthread_cond_t room;         /* the GPU thread moved on (taken_hi grew) or the pool stops */
    size_t taken_hi;             /* 1 + the furthest job the GPU thread asked for */
    struct gb_compile_job *jobs; /* in plan order */
    size_t n, next;              /* next: the first job a thread may still find pending */
    size_t *by_key;              /* job indices sorted by key */
    char arch[16];
    int stop;
    pthread_t tids[GB_POOL_MAX_THREADS];
    int n_threads;
    struct gb_compile_ahead ahead;
    struct gb_compile_pool_stats stats;
};

int gb_compile_pool_threads(void)
{
    const char *env = getenv("GPUBOUND_COMPILE_THREADS");
    if (env && env[0]) {
        char *end;
        long v = strtol(env, &end, 10);
        if (!*end && v >= 0 && v <= GB_POOL_MAX_THREADS)
            return (int)v;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long t = cores - 1;
    return (int)(t < 1 ? 1 : t > 8 ? 8 : t);
}

/* ---- the jobs of a plan ---- */

/* A point's module as a signature (source, name, options), so that equal
 * sets are found by sorting before any source is hashed. */
struct gb_sig {
    char *text;
    size_t item;
};

static int gb_sig_cmp(const void *a, const void *b)
{
    const struct gb_sig *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->item > y->item) - (x->item < y->item);
}

static int gb_sig_item_cmp(const void *a, const void *b)
{
    const struct gb_sig *x = a, *y = b;
    return (x->item > y->item) - (x->item < y->item);
}

/* The job of plan item `it`: its module's source, name and options; 0 when
 * the bench compiles nothing. */
static int gb_job_of(const struct gb_plan_item *it, int quick, struct gb_compile_job *j)
{
    const struct gb_bench *b = it->bench;
    struct gb_point p;
    const char *optp[GB_POOL_MAX_OPTS];
    memset(j, 0, sizeof *j);
    if (gb_bench_kernel(b, &j->name, &j->source) != GB_OK || !j->source)
        return 0;
    gb_plan_point(it, quick, &p);
    p.gpu = NULL;
    j->n_opts = b->kernel_opts ? b->kernel_opts(&p, b->ctx, j->opts, GB_POOL_MAX_OPTS) : 0;
    if (j->n_opts < 0)
        j->n_opts = 0;
    gb_point_release(&p);
    j->prog.name = j->name;
    j->prog.source = j->source;
    for (int o = 0; o < j->n_opts; o++)
        optp[o] = j->opts[o];
    /* A program the bench cannot describe is left to the GPU thread, which
     * reports why. */
    return !b->kernel_program ||
           b->kernel_program(b->ctx, optp, j->n_opts, &j->prog, j->exprs, GB_BENCH_MAX_EXPRS) == GB_OK;
}

/* The signature text of a job (malloc'ed). */
static char *gb_job_sig(const struct gb_compile_job *j)
{
    size_t n = 64 + strlen(j->name) + (size_t)j->n_opts * (GB_OPT_LEN + 1);
    char *s = malloc(n);
    if (!s)
        return NULL;
    int w = snprintf(s, n, "%p|%s|", (const void *)j->source, j->name);
    for (int i = 0; i < j->n_opts && w > 0 && (size_t)w < n; i++)
        w += snprintf(s + w, n - (size_t)w, "%s\x1f", j->opts[i]);
    return s;
}

/* The plan items whose module is the first of its kind, in plan order:
 * sigs[0..*n_out) keep their item index. */
static enum gb_status gb_pool_distinct(const struct gb_plan *plan, int quick, struct gb_sig **out, size_t *n_out)
{
    struct gb_sig *sigs = calloc(plan->n ? plan->n : 1, sizeof *sigs);
    struct gb_compile_job j;
    size_t n = 0, k = 0;
    *out = NULL;
    *n_out = 0;
    if (!sigs)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory planning the compiles");
    for (size_t i = 0; i < plan->n; i++) {
        if (!gb_job_of(&plan->items[i], quick, &j))
            continue;
        if (!(sigs[n].text = gb_job_sig(&j))) {
            for (size_t m = 0; m < n; m++)
                free(sigs[m].text);
            free(sigs);
            return gb_error_set(GB_ERR_NOMEM, "out of host memory planning the compiles");
        }
        sigs[n++].item = i;
    }
    qsort(sigs, n, sizeof *sigs, gb_sig_cmp);
    for (size_t i = 0; i < n; i++) {
        if (k && strcmp(sigs[k - 1].text, sigs[i].text) == 0) {
            free(sigs[i].text);
            continue;
        }
        sigs[k++] = sigs[i];
    }
    qsort(sigs, k, sizeof *sigs, gb_sig_item_cmp);
    *out = sigs;
    *n_out = k;
    return GB_OK;
}

static int gb_key_cmp(const void *a, const void *b, void *ctx)
{
    const struct gb_compile_pool *pool = ctx;
    return strcmp(pool->jobs[*(const size_t *)a].key, pool->jobs[*(const size_t *)b].key);
}

/* The pool's jobs: one per distinct module, keyed, in plan order. */
static enum gb_status gb_pool_jobs(struct gb_compile_pool *pool, const struct gb_plan *plan, int quick)
{
    struct gb_sig *sigs = NULL;
    size_t n = 0;
    enum gb_status st = gb_pool_distinct(plan, quick, &sigs, &n);
    if (st != GB_OK)
        return st;
    pool->jobs = calloc(n ? n : 1, sizeof *pool->jobs);
    pool->by_key = calloc(n ? n : 1, sizeof *pool->by_key);
    if (!pool->jobs || !pool->by_key)
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory planning the compiles");
    for (size_t i = 0; i < n && st == GB_OK; i++) {
        struct gb_compile_job *j = &pool->jobs[pool->n];
        const char *optp[GB_POOL_MAX_OPTS];
        gb_job_of(&plan->items[sigs[i].item], quick, j);
        for (int o = 0; o < j->n_opts; o++)
            optp[o] = j->opts[o];
        st = gb_module_key(pool->arch, &j->prog, optp, j->n_opts, j->key);
        pool->by_key[pool->n] = pool->n;
        pool->n++;
    }
    for (size_t i = 0; i < n; i++)
        free(sigs[i].text);
    free(sigs);
    if (st != GB_OK)
        return st;
    qsort_r(pool->by_key, pool->n, sizeof *pool->by_key, gb_key_cmp, pool);
    /* Equal keys from different signatures (the same text twice): compile once. */
    for (size_t i = 1; i < pool->n; i++)
        if (strcmp(pool->jobs[pool->by_key[i]].key, pool->jobs[pool->by_key[i - 1]].key) == 0)
            pool->jobs[pool->by_key[i]].state = GB_JOB_DONE, pool->jobs[pool->by_key[i]].handed = 1;
    return GB_OK;
}

/* ---- compiling ---- */

/* Compiles job j (its state is RUNNING, the lock not held) and records the
 * outcome under the lock. */
static void gb_job_run(struct gb_compile_pool *pool, struct gb_compile_job *j)
{
    const char *optp[GB_POOL_MAX_OPTS];
    struct gb_module_built b;
    for (int o = 0; o < j->n_opts; o++)
        optp[o] = j->opts[o];
    enum gb_status st = gb_module_build(pool->arch, &j->prog, optp, j->n_opts, &b);
    char *msg = st != GB_OK ? strdup(gb_error_message()) : NULL;
    pthread_mutex_lock(&pool->lock);
    j->st = st;
    j->built = b;
    j->msg = msg;
    j->state = GB_JOB_DONE;
    pool->stats.cpu_s += b.cpu_s;
    pool->stats.cached += b.cached;
    pool->stats.compiled += st == GB_OK && !b.cached;
    pool->stats.failed += st == GB_ERR_COMPILE;
    pthread_cond_broadcast(&pool->done);
    pthread_mutex_unlock(&pool->lock);
}

static void *gb_pool_worker(void *arg)
{
    struct gb_compile_pool *pool = arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->next < pool->n && pool->jobs[pool->next].state != GB_JOB_PENDING)
            pool->next++;
        if (pool->stop || pool->next >= pool->n)
            break;
        if (pool->next >= pool->taken_hi + GB_POOL_LOOKAHEAD) {
            pthread_cond_wait(&pool->room, &pool->lock);
            continue;
        }
        struct gb_compile_job *j = &pool->jobs[pool->next++];
        j->state = GB_JOB_RUNNING;
        pthread_mutex_unlock(&pool->lock);
        gb_job_run(pool, j);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* The job of `key`, or NULL. Under the lock. */
static struct gb_compile_job *gb_pool_find(struct gb_compile_pool *pool, const char *key)
{
    size_t lo = 0, hi = pool->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(pool->jobs[pool->by_key[mid]].key, key);
        if (c == 0)
            return &pool->jobs[pool->by_key[mid]];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Hands a finished job's result to the GPU thread. Under the lock. */
static enum gb_status gb_job_hand(struct gb_compile_job *j, char **cubin, size_t *size, char **log)
{
    if (j->handed || j->built.cached)
        return GB_ERR_UNSUPPORTED; /* in the disk cache (or given already): the caller loads it */
    j->handed = 1;
    if (j->st != GB_OK) {
        if (j->st == GB_ERR_COMPILE && j->built.log)
            *log = strdup(j->built.log);
        return gb_error_set(j->st, "%s", j->msg ? j->msg : "the kernel failed to compile");
    }
    *cubin = j->built.cubin;
    *size = j->built.size;
    j->built.cubin = NULL;
    return GB_OK;
}

/* The GPU thread's side (struct gb_compile_ahead). */
static enum gb_status gb_pool_take(void *ctx, const char *key, char **cubin, size_t *size, char **log,
                                   double *waited_s)
{
    struct gb_compile_pool *pool = ctx;
    enum gb_status st;
    *cubin = NULL;
    *size = 0;
    *log = NULL;
    pthread_mutex_lock(&pool->lock);
    struct gb_compile_job *j = gb_pool_find(pool, key);
    if (!j) {
        pthread_mutex_unlock(&pool->lock);
        return GB_ERR_UNSUPPORTED;
    }
    if ((size_t)(j - pool->jobs) + 1 > pool->taken_hi) {
        pool->taken_hi = (size_t)(j - pool->jobs) + 1;
        pthread_cond_broadcast(&pool->room);
    }
    if (j->state == GB_JOB_PENDING) {
        /* Needed before a pool thread reached it: compiled here, now. */
        j->state = GB_JOB_RUNNING;
        pool->stats.taken_inline++;
        pthread_mutex_unlock(&pool->lock);
        gb_job_run(pool, j);
        pthread_mutex_lock(&pool->lock);
    } else if (j->state == GB_JOB_RUNNING) {
        double t0 = gb_measure_now_s();
        while (j->state != GB_JOB_DONE)
            pthread_cond_wait(&pool->done, &pool->lock);
        double dt = gb_measure_now_s() - t0;
        pool->stats.wait_s += dt;
        *waited_s += dt;
    }
    st = gb_job_hand(j, cubin, size, log);
    pthread_mutex_unlock(&pool->lock);
    return st;
}

enum gb_status gb_compile_pool_start(const struct gb_plan *plan, int quick, const char *arch, int threads,
                                     struct gb_compile_pool **out)
{
    struct gb_compile_pool *pool;
    enum gb_status st;
    *out = NULL;
    if (threads <= 0)
        return GB_OK;
    if (threads > GB_POOL_MAX_THREADS)
        threads = GB_POOL_MAX_THREADS;
    if (!(pool = calloc(1, sizeof *pool)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->done, NULL);
    pthread_cond_init(&pool->room, NULL);
    snprintf(pool->arch, sizeof pool->arch, "%s", arch);
    pool->ahead.take = gb_pool_take;
    pool->ahead.ctx = pool;
    if ((st = gb_pool_jobs(pool, plan, quick)) != GB_OK || pool->n == 0) {
        gb_compile_pool_stop(pool, NULL);
        return st;
    }
    pool->stats.jobs = (int)pool->n;
    for (int i = 0; i < threads && (size_t)i < pool->n; i++) {
        if (pthread_create(&pool->tids[i], NULL, gb_pool_worker, pool) != 0)
            break; /* fewer threads; the GPU thread compiles what none reaches */
        pool->n_threads++;
    }
    pool->stats.threads = pool->n_threads;
    *out = pool;
    return GB_OK;
}

const struct gb_compile_ahead *gb_compile_pool_ahead(struct gb_compile_pool *pool)
{
    return pool ? &pool->ahead : NULL;
}

void gb_compile_pool_stop(struct gb_compile_pool *pool, struct gb_compile_pool_stats *stats)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->stop = 1;
    pthread_cond_broadcast(&pool->room);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->n_threads; i++)
        pthread_join(pool->tids[i], NULL);
    if (stats)
        *stats = pool->stats;
    for (size_t i = 0; i < pool->n; i++) {
        free(pool->jobs[i].built.cubin);
        free(pool->jobs[i].built.log);
        free(pool->jobs[i].msg);
    }
    free(pool->jobs);
    free(pool->by_key);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->room);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}
