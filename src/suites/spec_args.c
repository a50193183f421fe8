/* spec_args.c - a spec bench's arguments on the device: buffers with fresh
 * non-zero inputs (random, constant, iota or a file), scalars as the kernel
 * takes them, poisoned outputs, and the launch.
 *
 * Random inputs are seeded by the run (once per process) and the point's
 * problem-axis values, so that every configuration of one problem sees the
 * same inputs (the "first" reference needs that) and every run sees fresh
 * ones. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suites/spec_internal.h"

static uint64_t gb_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The seed of argument `arg` of the point: the run's, the bench, the
 * problem axes' values. */
static uint64_t gb_spec_seed(const struct gb_spec_bench *b, const struct gb_spec_values *pv, int arg)
{
    static uint64_t run_seed;
    if (!run_seed)
        run_seed = gb_mix(((uint64_t)rand() << 32) ^ (uint64_t)rand() ^ 0x5EED) | 1;
    uint64_t h = run_seed ^ gb_mix((uint64_t)b->index + 1) ^ gb_mix((uint64_t)arg + 77);
    for (int a = 0; a < b->n_axes; a++)
        if (b->problem_mask & (1u << a))
            h = gb_mix(h ^ (uint64_t)(int64_t)pv->v[a] ^ ((uint64_t)a << 56));
    return h;
}

/* Stores x as element i of a typed host array. */
static void gb_store(void *h, enum gb_spec_type t, size_t i, double x)
{
    switch (t) {
    case GB_ST_FLOAT: ((float *)h)[i] = (float)x; break;
    case GB_ST_DOUBLE: ((double *)h)[i] = x; break;
    case GB_ST_INT: ((int32_t *)h)[i] = (int32_t)x; break;
    case GB_ST_UINT: ((uint32_t *)h)[i] = (uint32_t)x; break;
    case GB_ST_LONG: ((int64_t *)h)[i] = (int64_t)x; break;
    case GB_ST_ULONG: ((uint64_t *)h)[i] = (uint64_t)x; break;
    }
}

/* A value drawn from [lo, hi], never zero (integers: whole numbers). */
static double gb_draw(const struct gb_spec_arg *a, uint64_t seed, size_t i)
{
    double u = (double)(gb_mix(seed + 0x9E3779B97F4A7C15ull * (i + 1)) >> 11) * 0x1.0p-53;
    if (gb_spec_type_float(a->type)) {
        double x = a->a + u * (a->b - a->a);
        float f = (float)x;
        if ((a->type == GB_ST_FLOAT && f == 0.0f) || x == 0)
            x = a->b != 0 ? a->b : a->a != 0 ? a->a : 1;
        return x;
    }
    double lo = ceil(a->a), hi = floor(a->b);
    double x = lo + floor(u * (hi - lo + 1));
    if (x > hi)
        x = hi;
    if (x == 0)
        x = hi != 0 ? hi : lo;
    return x;
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

/* The initial contents of buffer i on the host. */
static enum gb_status gb_init_host(const struct gb_spec_bench *b, const struct gb_spec_values *pv, int i, void *h)
{
    const struct gb_spec_arg *a = &b->args[i];
    size_t n = pv->count[i];
    uint64_t seed = gb_spec_seed(b, pv, i);
    switch (a->init) {
    case GB_SI_RANDOM:
        for (size_t k = 0; k < n; k++)
            gb_store(h, a->type, k, gb_draw(a, seed, k));
        break;
    case GB_SI_CONSTANT:
        for (size_t k = 0; k < n; k++)
            gb_store(h, a->type, k, a->a);
        break;
    case GB_SI_IOTA:
        for (size_t k = 0; k < n; k++)
            gb_store(h, a->type, k, a->a + a->b * (double)k);
        break;
    case GB_SI_FILE: return gb_read_exact(b, i, h, n * gb_spec_type_size(a->type));
    case GB_SI_NONE: break;
    }
    return GB_OK;
}

static void gb_set_scalar(struct gb_spec_state *s, int i, enum gb_spec_type t, double x)
{
    switch (t) {
    case GB_ST_FLOAT: s->scalar[i].f = (float)x; break;
    case GB_ST_DOUBLE: s->scalar[i].d = x; break;
    case GB_ST_INT: s->scalar[i].i = (int32_t)x; break;
    case GB_ST_UINT: s->scalar[i].u = (uint32_t)x; break;
    case GB_ST_LONG: s->scalar[i].l = (int64_t)x; break;
    case GB_ST_ULONG: s->scalar[i].ul = (uint64_t)x; break;
    }
    s->params[i] = &s->scalar[i];
}

/* One buffer: allocated, filled, and for an output with an init, a copy of
 * its initial contents to restore before the verification launch. */
static enum gb_status gb_arg_buffer(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s, int i)
{
    const struct gb_spec_arg *a = &b->args[i];
    size_t bytes = s->pv.count[i] * gb_spec_type_size(a->type);
    enum gb_status st = GB_OK;
    void *h = NULL;
    /* A zero-length buffer still gets an address. */
    if ((st = gb_gpu_alloc(p->gpu, bytes ? bytes : 16, &s->buf[i])) != GB_OK)
        return st;
    s->params[i] = &s->buf[i];
    if (a->init == GB_SI_NONE || bytes == 0)
        return GB_OK;
    if (!(h = malloc(bytes)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory for %s (%zu bytes)", a->name, bytes);
    if ((st = gb_init_host(b, &s->pv, i, h)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->buf[i], h, bytes));
    if (a->output) {
        if ((st = gb_gpu_alloc(p->gpu, bytes, &s->init_copy[i])) != GB_OK)
            goto out;
        GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->init_copy[i], h, bytes));
    }
out:
    free(h);
    return st;
}

enum gb_status gb_spec_args_setup(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        if (b->args[i].scalar)
            gb_set_scalar(s, i, b->args[i].type, s->pv.scalar[i]);
        else
            st = gb_arg_buffer(b, p, s, i);
    }
    return st;
}

void gb_spec_args_release(struct gb_gpu *g, struct gb_spec_state *s)
{
    for (int i = 0; i < GB_SPEC_MAX_ARGS; i++) {
        gb_gpu_free(g, s->buf[i]);
        gb_gpu_free(g, s->init_copy[i]);
        s->buf[i] = s->init_copy[i] = 0;
    }
}

/* Fills an output buffer with the poison of its type. */
enum gb_status gb_spec_poison_buffer(struct gb_gpu *g, enum gb_spec_type t, CUdeviceptr p, size_t bytes)
{
    enum gb_status st = GB_OK;
    /* All-ones bytes are a NaN in float and double alike. */
    GB_CU_CHECK(st, gb_cu->cuMemsetD8Async(p, gb_spec_type_float(t) ? 0xFF : 0xA5, bytes, g->stream));
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
        if (s->init_copy[i])
            GB_CU_CHECK(st, gb_cu->cuMemcpyDtoDAsync(s->buf[i], s->init_copy[i], bytes, p->gpu->stream));
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
