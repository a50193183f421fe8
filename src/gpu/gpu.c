/* gpu.c - an opened device: context, stream, memory, modules, helper kernels. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpubound/gpu.h"
#include "gpu/gpu_internal.h"
#include "util/fs.h"

struct gb_module_entry {
    char key[40];
    CUmodule mod;
    char **lowered;              /* the program's lowered names (NULL: none) */
    int n_lowered;
    struct gb_module_entry *next;
};

static void gb_lowered_free(char **v, int n)
{
    for (int i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

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
    GB_CU_CHECK(st, gb_cu->cuDevicePrimaryCtxRetain(&g->ctx, g->dev));
    GB_CU_CHECK(st, gb_cu->cuCtxSetCurrent(g->ctx));
    GB_CU_CHECK(st, gb_cu->cuStreamCreate(&g->stream, CU_STREAM_NON_BLOCKING));
    st = gb_gpu_module(g, "util.cu", NULL, 0, &g->util);
    if (st != GB_OK)
        goto out;
    st = gb_gpu_alloc(g, 64, &g->scratch);
out:
    if (st != GB_OK)
        gb_gpu_close(g);
    return st;
}

void gb_gpu_close(struct gb_gpu *g)
{
    if (!gb_cu || !g->ctx)
        return;
    gb_cu->cuCtxSetCurrent(g->ctx);
    if (g->stream)
        gb_cu->cuStreamSynchronize(g->stream);
    gb_gpu_free(g, g->flush_buf);
    gb_gpu_free(g, g->scratch);
    for (struct gb_module_entry *e = g->modules, *next; e; e = next) {
        next = e->next;
        gb_cu->cuModuleUnload(e->mod);
        gb_lowered_free(e->lowered, e->n_lowered);
        free(e);
    }
    if (g->stream)
        gb_cu->cuStreamDestroy(g->stream);
    gb_cu->cuDevicePrimaryCtxRelease(g->dev);
    memset(g, 0, sizeof *g);
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

/* Two FNV-1a 64-bit hashes with different bases: a 128-bit cache key. */
static void gb_hash_update(uint64_t h[2], const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h[0] = (h[0] ^ p[i]) * 0x100000001b3ull;
        h[1] = (h[1] ^ p[i]) * 0x100000001b3ull;
    }
    /* A separator, so that ("ab","c") and ("a","bc") differ. */
    h[0] = (h[0] ^ 0xff) * 0x100000001b3ull;
    h[1] = (h[1] ^ 0xfe) * 0x100000001b3ull;
}

void gb_cache_dir(char *buf, size_t n)
{
    const char *env = getenv("GPUBOUND_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (env && env[0])
        snprintf(buf, n, "%s", env);
    else if (xdg && xdg[0])
        snprintf(buf, n, "%s/gpubound", xdg);
    else if (home && home[0])
        snprintf(buf, n, "%s/.cache/gpubound", home);
    else
        buf[0] = '\0';
}

static char *gb_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long len = ftell(f);
        if (len > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len))) {
            if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
                free(buf);
                buf = NULL;
            } else {
                *size = (size_t)len;
            }
        }
    }
    fclose(f);
    return buf;
}

/* The device tier's kernel mutants: GPUBOUND_KERNEL_DEFINES="NAME ..."
 * (unset in normal use) puts "#define NAME 1" in front of every embedded
 * kernel source, e.g. GB_MUTANT_CLIQUE, which the kernels turn into a
 * deliberate bug that verification must catch (tests/device/kernel_mutants.sh).
 * Returns a new string, or NULL when the variable is unset or on no memory. */
static char *gb_mutant_source(const char *src)
{
    const char *defs = getenv("GPUBOUND_KERNEL_DEFINES");
    if (!defs || !defs[0])
        return NULL;
    size_t n = strlen(src) + 12 * strlen(defs) + 64; /* "#define X 1\n" per name */
    char *out = malloc(n), *p = out;
    if (!out)
        return NULL;
    for (const char *d = defs; *d;) {
        size_t len = strcspn(d, " ,");
        if (len)
            p += sprintf(p, "#define %.*s 1\n", (int)len, d);
        d += len;
        d += strspn(d, " ,");
    }
    strcpy(p, src);
    return out;
}

enum gb_status gb_gpu_module(struct gb_gpu *g, const char *file, const char *const *opts,
                             int n_opts, CUmodule *out)
{
    const char *src = gb_kernel_source(file);
    *out = NULL;
    if (!src)
        return gb_error_set(GB_ERR_USAGE, "no embedded kernel source named %s", file);
    return gb_gpu_module_source(g, file, src, opts, n_opts, out);
}

static enum gb_status gb_gpu_module_compile(struct gb_gpu *g, const struct gb_nvrtc_program *x,
                                            const char *const *opts, int n_opts, CUmodule *out,
                                            const char *const **lowered);

/* Every module, however named, passes the mutant hook first. */
enum gb_status gb_gpu_module_source(struct gb_gpu *g, const char *name, const char *src,
                                    const char *const *opts, int n_opts, CUmodule *out)
{
    struct gb_nvrtc_program x = {.name = name, .source = src};
    return gb_gpu_module_program(g, &x, opts, n_opts, out, NULL);
}

enum gb_status gb_gpu_module_program(struct gb_gpu *g, const struct gb_nvrtc_program *prog,
                                     const char *const *opts, int n_opts, CUmodule *out,
                                     const char *const **lowered)
{
    struct gb_nvrtc_program x = *prog;
    char *mutant = x.source ? gb_mutant_source(x.source) : NULL;
    if (mutant)
        x.source = mutant;
    enum gb_status st = gb_gpu_module_compile(g, &x, opts, n_opts, out, lowered);
    free(mutant);
    return st;
}

/* The cache key of a program: name, source, architecture, NVRTC version and
 * options; headers and name expressions only when there are any, so that a
 * plain source keeps the key it always had. */
static void gb_module_key(const struct gb_gpu *g, const struct gb_nvrtc_program *x, const char *nvrtc_ver,
                          const char *const *opts, int n_opts, char key[40])
{
    uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    gb_hash_update(h, x->name, strlen(x->name));
    gb_hash_update(h, x->source, strlen(x->source));
    gb_hash_update(h, g->arch, strlen(g->arch));
    gb_hash_update(h, nvrtc_ver, strlen(nvrtc_ver));
    for (int i = 0; i < n_opts; i++)
        gb_hash_update(h, opts[i], strlen(opts[i]));
    for (int i = 0; i < x->n_headers; i++) {
        gb_hash_update(h, x->header_names[i], strlen(x->header_names[i]));
        gb_hash_update(h, x->header_sources[i], strlen(x->header_sources[i]));
    }
    for (int i = 0; i < x->n_exprs; i++)
        gb_hash_update(h, x->exprs[i], strlen(x->exprs[i]));
    snprintf(key, 40, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
}

/* The lowered names kept beside a cached cubin (<key>-<arch>.names, one
 * per line): NULL when the file is missing or does not hold n names. */
static char **gb_names_read(const char *path, int n)
{
    size_t size = 0;
    char *text = gb_read_file(path, &size), **v = NULL;
    int k = 0;
    if (!text || !(v = calloc((size_t)n + 1, sizeof *v)))
        goto out;
    for (size_t i = 0, start = 0; i < size && k <= n; i++)
        if (text[i] == '\n') {
            if (k == n || !(v[k++] = strndup(text + start, i - start)))
                k = n + 1;
            start = i + 1;
        }
out:
    if (v && k != n) {
        gb_lowered_free(v, n);
        v = NULL;
    }
    free(text);
    return v;
}

static enum gb_status gb_names_write(const char *path, char **v, int n)
{
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += strlen(v[i]) + 1;
    char *text = malloc(len + 1), *p = text;
    if (!text)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s\n", v[i]);
    enum gb_status st = gb_write_file_atomic(path, text, len);
    free(text);
    return st;
}

static enum gb_status gb_gpu_module_compile(struct gb_gpu *g, const struct gb_nvrtc_program *x,
                                            const char *const *opts, int n_opts, CUmodule *out,
                                            const char *const **lowered)
{
    enum gb_status st = GB_OK;
    char *cubin = NULL, **names = NULL;
    size_t size = 0;
    char nvrtc_ver[32];
    struct gb_module_entry *e = NULL;
    *out = NULL;
    if (lowered)
        *lowered = NULL;
    if (!x->name || !x->source)
        return gb_error_set(GB_ERR_USAGE, "a kernel to compile needs a name and source text");
    st = gb_nvrtc_version(nvrtc_ver, sizeof nvrtc_ver);
    if (st != GB_OK)
        return st;
    char key[40];
    gb_module_key(g, x, nvrtc_ver, opts, n_opts, key);

    for (e = g->modules; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            *out = e->mod;
            if (lowered)
                *lowered = (const char *const *)e->lowered;
            return GB_OK;
        }

    char dir[4096], path[4200], names_path[4200];
    gb_cache_dir(dir, sizeof dir);
    path[0] = '\0';
    if (dir[0]) {
        snprintf(path, sizeof path, "%s/%s-%s.cubin", dir, key, g->arch);
        snprintf(names_path, sizeof names_path, "%s/%s-%s.names", dir, key, g->arch);
        /* A program with name expressions is a hit only with its lowered names. */
        if (x->n_exprs == 0 || (names = gb_names_read(names_path, x->n_exprs)))
            cubin = gb_read_file(path, &size);
    }
    CUmodule mod = NULL;
    if (cubin) {
        /* A damaged cache file is recompiled, not trusted. */
        if (gb_cu->cuModuleLoadData(&mod, cubin) != CUDA_SUCCESS) {
            mod = NULL;
            free(cubin);
            cubin = NULL;
        } else {
            g->disk_hits++;
        }
    }
    if (!mod) {
        gb_lowered_free(names, x->n_exprs);
        names = NULL;
        st = gb_nvrtc_compile_program(x, g->arch, opts, n_opts, &cubin, &size, x->n_exprs ? &names : NULL);
        if (st != GB_OK)
            goto out;
        g->compiles++;
        GB_CU_CHECK(st, gb_cu->cuModuleLoadData(&mod, cubin));
        if (path[0]) {
            /* A reader never sees half a cubin; a failed write only costs a
             * recompile next time (no cache directory: compile every time).
             * The names go first: a cubin on disk always has its names. */
            (void)gb_mkdir_p(dir);
            if (!names || gb_names_write(names_path, names, x->n_exprs) == GB_OK)
                (void)gb_write_file_atomic(path, cubin, size);
        }
    }
    e = calloc(1, sizeof *e);
    if (!e) {
        gb_cu->cuModuleUnload(mod);
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    snprintf(e->key, sizeof e->key, "%s", key);
    e->mod = mod;
    e->lowered = names;
    e->n_lowered = x->n_exprs;
    names = NULL;
    e->next = g->modules;
    g->modules = e;
    *out = mod;
    if (lowered)
        *lowered = (const char *const *)e->lowered;
out:
    gb_lowered_free(names, x->n_exprs);
    free(cubin);
    return st;
}

enum gb_status gb_gpu_function(CUmodule m, const char *name, CUfunction *out)
{
    CUresult r = gb_cu->cuModuleGetFunction(out, m, name);
    if (r != CUDA_SUCCESS)
        return gb_error_set(GB_ERR_CUDA, "kernel entry point %s not found in its module", name);
    return GB_OK;
}

enum gb_status gb_gpu_launch(struct gb_gpu *g, CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                             unsigned bx, unsigned by, unsigned bz, unsigned smem_bytes, void **args)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem_bytes, g->stream, args, NULL));
out:
    return st;
}

enum gb_status gb_gpu_sync(struct gb_gpu *g)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuStreamSynchronize(g->stream));
out:
    return st;
}

/* A grid that covers the device a few times over for grid-stride loops. */
static unsigned gb_util_grid(const struct gb_gpu *g, size_t n)
{
    size_t blocks = (n + 255) / 256;
    size_t cap = (size_t)g->info.sm_count * 8;
    return (unsigned)(blocks < cap ? (blocks ? blocks : 1) : cap);
}

static enum gb_status gb_util_run(struct gb_gpu *g, const char *kernel, size_t n, void **args)
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
    return gb_util_run(g, "gb_fill_random", n_words, args);
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
    st = gb_util_run(g, kernel, n, args);
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

static const char *const gb_flush_names[] = {"read", "write", "write-read"};

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
    return gb_util_run(g, "gb_flush", (size_t)n, args);
}

static enum gb_status gb_flush_read(struct gb_gpu *g)
{
    unsigned long long n = g->flush_bytes / 16;
    CUdeviceptr none = 0;
    void *args[] = {&g->flush_buf, &n, &none};
    return gb_util_run(g, "gb_flush_read", (size_t)n, args);
}

enum gb_status gb_gpu_flush_l2(struct gb_gpu *g, enum gb_flush_method method)
{
    enum gb_status st = GB_OK;
    if (!g->flush_buf) {
        size_t bytes = (size_t)(g->info.l2_bytes > 0 ? g->info.l2_bytes : (64 << 20)) * 2;
        if ((st = gb_gpu_alloc(g, bytes, &g->flush_buf)) != GB_OK)
            return st;
        g->flush_bytes = bytes;
        /* The reads need defined contents, written once. */
        if (method == GB_FLUSH_READ && (st = gb_flush_write(g)) != GB_OK)
            return st;
    }
    if (method != GB_FLUSH_READ && (st = gb_flush_write(g)) != GB_OK)
        return st;
    return method == GB_FLUSH_WRITE ? GB_OK : gb_flush_read(g);
}

int gb_gpu_sm_clock_mhz(const struct gb_gpu *g)
{
    return gb_nvml_sm_clock_mhz(g->info.pci_bus_id);
}

void gb_gpu_driver_release(char *buf, size_t n)
{
    gb_nvml_driver_release(buf, n);
}
