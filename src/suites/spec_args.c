/* spec_args.c - a spec bench's arguments on the device: the buffers of its
 * problem (spec_cache.h) with non-zero inputs made on the device (random,
 * constant, iota: kernels/spec_data.cu) or uploaded (a file), once per
 * problem; scalars as the kernel takes them; poisoned outputs; the launch.
 *
 * Element i of input buffer `arg` is a function of the run's seed (once
 * per process), the problem's hash (the bench and its problem-axis
 * values), arg and i alone (kernels/spec_data.h), so that every
 * configuration of one problem sees the same inputs (the "first"
 * reference needs that), every run sees fresh ones, and a problem evicted
 * and made again gets the same values back. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suites/spec_internal.h"

/* The run's seed: fresh per process. */
static uint64_t gb_run_seed(void)
{
    static uint64_t run_seed;
    if (!run_seed)
        run_seed = gb_sd_mix(((uint64_t)rand() << 32) ^ (uint64_t)rand() ^ 0x5EED) | 1;
    return run_seed;
}

uint64_t gb_spec_problem_hash(const struct gb_spec_bench *b, const struct gb_spec_values *pv)
{
    uint64_t h = (uint64_t)b->index + 1;
    for (int a = 0; a < b->n_axes; a++)
        if (b->problem_mask & (1u << a))
            h = gb_sd_problem(h, a, (int64_t)pv->v[a]);
    return h;
}

void gb_spec_problem_key(const struct gb_spec_bench *b, const struct gb_point *p, char *key, size_t n)
{
    size_t len = 0;
    key[0] = '\0';
    for (int a = 0; a < b->n_axes && len < n; a++)
        if (b->problem_mask & (1u << a)) {
            int w = snprintf(key + len, n - len, "%s%s=%s", len ? " " : "", b->axes[a].name,
                             gb_point_str(p, b->axes[a].name));
            len += w > 0 ? (size_t)w : 0;
        }
}

void gb_spec_need_of(const struct gb_spec_bench *b, const struct gb_spec_values *pv, struct gb_spec_need *need)
{
    memset(need, 0, sizeof *need);
    for (int i = 0; i < b->n_args; i++) {
        const struct gb_spec_arg *a = &b->args[i];
        if (a->scalar)
            continue;
        need->buffer[i] = 1;
        need->bytes[i] = pv->count[i] * gb_spec_type_size(a->type);
        need->init[i] = a->output && a->init != GB_SI_NONE;
        need->ref[i] = a->output;
    }
}

/* ---- the device's spec state ---- */

static enum gb_status gb_dev_alloc(void *ctx, size_t bytes, CUdeviceptr *out)
{
    return gb_gpu_alloc(ctx, bytes, out);
}

static void gb_dev_free(void *ctx, CUdeviceptr p)
{
    gb_gpu_free(ctx, p);
}

static void gb_spec_device_release(struct gb_gpu *g)
{
    struct gb_spec_device *d = g->spec_cache;
    if (!d)
        return;
    gb_spec_cache_clear(&d->cache);
    gb_gpu_free(g, d->result);
    free(d);
    g->spec_cache = NULL;
    g->spec_cache_release = NULL;
}

enum gb_status gb_spec_device_of(struct gb_gpu *g, struct gb_spec_device **out)
{
    enum gb_status st = GB_OK;
    size_t free_b = 0, total_b = 0;
    CUmodule m;
    struct gb_spec_device *d = g->spec_cache;
    *out = d;
    if (d)
        return GB_OK;
    if (!(d = calloc(1, sizeof *d)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_CU_CHECK(st, gb_cu->cuMemGetInfo(&free_b, &total_b));
    if ((st = gb_gpu_module(g, "spec_data.cu", NULL, 0, &m)) != GB_OK ||
        (st = gb_gpu_function(m, "gb_spec_fill", &d->fill)) != GB_OK ||
        (st = gb_gpu_function(m, "gb_spec_compare", &d->compare)) != GB_OK ||
        (st = gb_gpu_alloc(g, 2 * sizeof(uint64_t), &d->result)) != GB_OK)
        goto out;
    d->cache.budget = gb_spec_cache_budget(free_b);
    d->cache.alloc = gb_dev_alloc;
    d->cache.free = gb_dev_free;
    d->cache.ctx = g;
    g->spec_cache = d;
    g->spec_cache_release = gb_spec_device_release;
    g->spec_budget_bytes = d->cache.budget;
    *out = d;
    d = NULL;
out:
    free(d);
    return st;
}

/* A grid that covers the device a few times over for a grid-stride loop. */
static unsigned gb_data_grid(const struct gb_gpu *g, size_t n)
{
    size_t blocks = (n + 255) / 256, cap = (size_t)(g->info.sm_count > 0 ? g->info.sm_count : 1) * 8;
    return (unsigned)(blocks < cap ? (blocks ? blocks : 1) : cap);
}

/* Fills `dst`, n elements of input i, on the device. */
static enum gb_status gb_fill_device(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s,
                                     int i, CUdeviceptr dst)
{
    const struct gb_spec_arg *a = &b->args[i];
    unsigned long long n = s->pv.count[i];
    unsigned long long key = gb_sd_stream(gb_run_seed(), gb_spec_problem_hash(b, &s->pv), i);
    int type = (int)a->type, init = (int)a->init;
    double lo = a->a, hi = a->b;
    void *args[] = {&dst, &n, &type, &init, &lo, &hi, &key};
    return gb_gpu_launch(p->gpu, s->dev->fill, gb_data_grid(p->gpu, n), 1, 1, 256, 1, 1, 0, args);
}

FILE *gb_spec_open_data(const char *path)
{
    struct stat sb;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    FILE *f = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? fdopen(fd, "rb") : NULL;
    if (!f)
        close(fd);
    return f;
}

/* Reads an init file of exactly `bytes` bytes into h. */
static enum gb_status gb_read_exact(const struct gb_spec_bench *b, int i, void *h, size_t bytes)
{
    const struct gb_spec_arg *a = &b->args[i];
    enum gb_status st = GB_OK;
    FILE *f = gb_spec_open_data(a->file);
    if (!f)
        return gb_error_set(GB_ERR_USAGE, "%s: benches[%d].args[%d].init.file: cannot read %s", b->spec->file,
                            b->index, i, a->file);
    size_t n = fread(h, 1, bytes, f);
    int more = fgetc(f) != EOF;
    if (n != bytes || more)
        st = gb_error_set(GB_ERR_USAGE, "%s: benches[%d].args[%d].init.file: %s holds %s%zu bytes; %s needs %zu "
                          "(%zu %s values)", b->spec->file, b->index, i, a->file, more ? "more than " : "", n,
                          a->name, bytes, bytes / gb_spec_type_size(a->type), gb_spec_type_name(a->type));
    fclose(f);
    return st;
}

/* Uploads init file of input i (read on the host, once per problem) into dst. */
static enum gb_status gb_upload_file(const struct gb_spec_bench *b, CUdeviceptr dst, int i, size_t bytes)
{
    enum gb_status st = GB_OK;
    void *h = malloc(bytes);
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory for %s (%zu bytes)", b->args[i].name, bytes);
    if ((st = gb_read_exact(b, i, h, bytes)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(dst, h, bytes));
out:
    free(h);
    return st;
}

/* The initial contents of the problem's buffers: inputs in place, outputs
 * with an init into their initial copy (restored before each verified
 * launch by gb_spec_args_poison). */
static enum gb_status gb_problem_fill(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        const struct gb_spec_arg *a = &b->args[i];
        size_t bytes = s->pv.count[i] * gb_spec_type_size(a->type);
        CUdeviceptr dst = a->output ? s->prob->init[i] : s->prob->data[i];
        if (a->scalar || a->init == GB_SI_NONE || bytes == 0)
            continue;
        st = a->init == GB_SI_FILE ? gb_upload_file(b, dst, i, bytes) : gb_fill_device(b, p, s, i, dst);
    }
    if (st == GB_OK && (st = gb_gpu_sync(p->gpu)) == GB_OK)
        s->prob->made = 1;
    return st;
}

/* "first": the problem's reference was made with outputs of other sizes. */
static enum gb_status gb_first_sizes(const struct gb_spec_bench *b, const struct gb_spec_problem *kept,
                                     const struct gb_spec_need *need)
{
    for (int i = 0; i < b->n_args; i++)
        if (b->args[i].output && kept->need.bytes[i] != need->bytes[i])
            return gb_error_set(GB_ERR_VERIFY, "output %s: %zu bytes, but the first configuration of %s made %zu",
                                b->args[i].name, need->bytes[i], kept->key, kept->need.bytes[i]);
    return GB_OK;
}

/* The point's problem: kept, or made now (its inputs filled). */
static enum gb_status gb_problem_acquire(struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st;
    struct gb_spec_need need;
    char key[GB_SPEC_PROBLEM_KEY];
    int fresh = 0;
    struct gb_spec_problem *kept;
    if ((st = gb_spec_device_of(p->gpu, &s->dev)) != GB_OK)
        return st;
    if (!b->cache_id)
        b->cache_id = gb_spec_cache_new_id();
    gb_spec_problem_key(b, p, key, sizeof key);
    gb_spec_need_of(b, &s->pv, &need);
    kept = gb_spec_cache_find(&s->dev->cache, b->cache_id, key);
    if (b->ref_kind == GB_SR_FIRST && kept && kept->ref_made && (st = gb_first_sizes(b, kept, &need)) != GB_OK)
        return st;
    st = gb_spec_cache_get(&s->dev->cache, b->cache_id, key, &need, &s->prob, &fresh);
    p->gpu->spec_problems = s->dev->cache.made;
    p->gpu->spec_evictions = s->dev->cache.evicted;
    if (st != GB_OK || s->prob->made)
        return st;
    if ((st = gb_problem_fill(b, p, s)) != GB_OK && fresh) {
        /* Half made: nothing of it is kept. */
        gb_spec_cache_drop(&s->dev->cache, s->prob);
        s->prob = NULL;
    }
    return st;
}

/* Scalar i as the kernel takes it: the value stored in its type. */
static void gb_set_scalar(struct gb_spec_state *s, int i, enum gb_spec_type t, double x)
{
    memset(&s->scalar[i], 0, sizeof s->scalar[i]);
    gb_sd_store(&s->scalar[i], (int)t, 0, x);
    s->params[i] = &s->scalar[i];
}

enum gb_status gb_spec_args_setup(struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = gb_problem_acquire(b, p, s);
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        if (b->args[i].scalar) {
            gb_set_scalar(s, i, b->args[i].type, s->pv.scalar[i]);
        } else {
            s->buf[i] = s->prob->data[i];
            s->params[i] = &s->buf[i];
        }
    }
    return st;
}

void gb_spec_args_release(struct gb_spec_state *s)
{
    gb_spec_cache_done(s->prob);
    s->prob = NULL;
    memset(s->buf, 0, sizeof s->buf);
}

/* Fills an output buffer with the poison of its type. */
enum gb_status gb_spec_poison_buffer(struct gb_gpu *g, enum gb_spec_type t, CUdeviceptr p, size_t bytes)
{
    enum gb_status st = GB_OK;
    /* All-ones bytes are a NaN in float and double alike. */
    GB_CU_CHECK(st, gb_cu->cuMemsetD8Async(p, gb_spec_type_float(t) ? 0xFF : GB_SD_POISON_BYTE, bytes, g->stream));
out:
    return st;
}

enum gb_status gb_spec_args_poison(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        const struct gb_spec_arg *a = &b->args[i];
        size_t bytes = s->pv.count[i] * gb_spec_type_size(a->type);
        if (!a->output || bytes == 0)
            continue;
        /* An output that is an input too gets its initial contents back instead. */
        if (s->prob->init[i])
            GB_CU_CHECK(st, gb_cu->cuMemcpyDtoDAsync(s->buf[i], s->prob->init[i], bytes, p->gpu->stream));
        else
            st = gb_spec_poison_buffer(p->gpu, a->type, s->buf[i], bytes);
    }
out:
    return st;
}

enum gb_status gb_spec_launch_kernel(struct gb_point *p, struct gb_spec_state *s, CUfunction f,
                                     const unsigned grid[3], const unsigned block[3], unsigned smem)
{
    return gb_gpu_launch(p->gpu, f, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, s->params);
}
