/* gpu.c - an opened device: context, stream, memory, modules, helper kernels. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpubound/gpu.h"
#include "gpu/cupti.h"
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

/* Unloads the modules of g's memory cache and forgets them. */
static void gb_gpu_unload_modules(struct gb_gpu *g)
{
    for (struct gb_module_entry *e = g->modules, *next; e; e = next) {
        next = e->next;
        gb_cu->cuModuleUnload(e->mod);
        gb_lowered_free(e->lowered, e->n_lowered);
        free(e);
    }
    g->modules = NULL;
    g->util = NULL;
    g->flush_code = NULL;
}

/* Forgets the modules without a driver call (a hung device: an unload could wait). */
static void gb_gpu_forget_modules(struct gb_gpu *g)
{
    for (struct gb_module_entry *e = g->modules, *next; e; e = next) {
        next = e->next;
        gb_lowered_free(e->lowered, e->n_lowered);
        free(e);
    }
    g->modules = NULL;
}

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

/* The key of an already hooked program: name, source, architecture, NVRTC
 * version and options; headers and name expressions only when there are
 * any, so that a plain source keeps the key it always had. */
static enum gb_status gb_key_of(const char *arch, const struct gb_nvrtc_program *x, const char *const *opts,
                                int n_opts, char key[GB_MODULE_KEY_LEN])
{
    char nvrtc_ver[32];
    enum gb_status st = gb_nvrtc_version(nvrtc_ver, sizeof nvrtc_ver);
    if (st != GB_OK)
        return st;
    uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    gb_hash_update(h, x->name, strlen(x->name));
    gb_hash_update(h, x->source, strlen(x->source));
    gb_hash_update(h, arch, strlen(arch));
    gb_hash_update(h, nvrtc_ver, strlen(nvrtc_ver));
    for (int i = 0; i < n_opts; i++)
        gb_hash_update(h, opts[i], strlen(opts[i]));
    for (int i = 0; i < x->n_headers; i++) {
        gb_hash_update(h, x->header_names[i], strlen(x->header_names[i]));
        gb_hash_update(h, x->header_sources[i], strlen(x->header_sources[i]));
    }
    for (int i = 0; i < x->n_exprs; i++)
        gb_hash_update(h, x->exprs[i], strlen(x->exprs[i]));
    snprintf(key, GB_MODULE_KEY_LEN, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
    return GB_OK;
}

/* `x` with the mutant hook applied to its source (*mutant: what to free). */
static struct gb_nvrtc_program gb_hooked(const struct gb_nvrtc_program *x, char **mutant)
{
    struct gb_nvrtc_program y = *x;
    *mutant = gb_mutant_source(x->source);
    if (*mutant)
        y.source = *mutant;
    return y;
}

enum gb_status gb_module_key(const char *arch, const struct gb_nvrtc_program *x, const char *const *opts,
                             int n_opts, char key[GB_MODULE_KEY_LEN])
{
    char *mutant;
    if (!x->name || !x->source)
        return gb_error_set(GB_ERR_USAGE, "a kernel to compile needs a name and source text");
    struct gb_nvrtc_program y = gb_hooked(x, &mutant);
    enum gb_status st = gb_key_of(arch, &y, opts, n_opts, key);
    free(mutant);
    return st;
}

/* The disk cache's files of `key`: the cubin into path and its lowered
 * names into names ("" when there is no cache directory); their directory
 * into dir. */
static void gb_cache_path(const char *key, const char *arch, char *dir, size_t dn, char *path, size_t pn,
                          char *names, size_t nn)
{
    gb_cache_dir(dir, dn);
    path[0] = names[0] = '\0';
    if (dir[0]) {
        snprintf(path, pn, "%s/%s-%s.cubin", dir, key, arch);
        snprintf(names, nn, "%s/%s-%s.names", dir, key, arch);
    }
}

/* The lowered names kept beside a cached cubin (one per line): NULL when
 * the file is missing or does not hold n names. */
static char **gb_names_read(const char *path, int n)
{
    size_t size = 0;
    char *text = path[0] ? gb_read_file(path, &size) : NULL, **v = NULL;
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

/* Compiles with NVRTC, counting this thread's CPU time, and writes the
 * lowered names and then the cubin to the disk cache (a cubin on disk
 * always has its names). *names (when not NULL) keeps the lowered names. */
static enum gb_status gb_compile_to_cache(const char *arch, const struct gb_nvrtc_program *x,
                                          const char *const *opts, int n_opts, const char *dir,
                                          const char *path, const char *names_path,
                                          struct gb_module_built *b, char ***names)
{
    struct timespec t0, t1;
    char **lowered = NULL;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    enum gb_status st = gb_nvrtc_compile_program(x, arch, opts, n_opts, &b->cubin, &b->size,
                                                 x->n_exprs ? &lowered : NULL, &b->log);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    b->cpu_s += (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (st == GB_OK && path[0]) {
        /* A reader never sees half a cubin; a failed write only costs a
         * recompile next time (no cache directory: compile every time). */
        (void)gb_mkdir_p(dir);
        if (!lowered || gb_names_write(names_path, lowered, x->n_exprs) == GB_OK)
            (void)gb_write_file_atomic(path, b->cubin, b->size);
    }
    if (names)
        *names = lowered;
    else
        gb_lowered_free(lowered, x->n_exprs);
    return st;
}

enum gb_status gb_module_build(const char *arch, const struct gb_nvrtc_program *x, const char *const *opts,
                               int n_opts, struct gb_module_built *out)
{
    char key[GB_MODULE_KEY_LEN], dir[4096], path[4200], names[4200], *mutant;
    struct stat sb;
    memset(out, 0, sizeof *out);
    if (!x->name || !x->source)
        return gb_error_set(GB_ERR_USAGE, "a kernel to compile needs a name and source text");
    struct gb_nvrtc_program y = gb_hooked(x, &mutant);
    enum gb_status st = gb_key_of(arch, &y, opts, n_opts, key);
    if (st == GB_OK) {
        gb_cache_path(key, arch, dir, sizeof dir, path, sizeof path, names, sizeof names);
        if (path[0] && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
            (y.n_exprs == 0 || access(names, R_OK) == 0))
            out->cached = 1;
        else
            st = gb_compile_to_cache(arch, &y, opts, n_opts, dir, path, names, out, NULL);
    }
    free(mutant);
    return st;
}

/* Loads a cubin into a module. */
static enum gb_status gb_load_cubin(const char *cubin, CUmodule *mod)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuModuleLoadData(mod, cubin));
out:
    return st;
}

/* The module of `key` from the compile pool (its lowered names from the
 * disk cache it wrote them to), or GB_ERR_UNSUPPORTED when the pool does
 * not have it. */
static enum gb_status gb_module_from_pool(struct gb_gpu *g, const char *key, const struct gb_nvrtc_program *x,
                                          const char *names_path, struct gb_module_built *b, CUmodule *mod,
                                          char ***names)
{
    enum gb_status st = GB_ERR_UNSUPPORTED;
    if (g->ahead)
        st = g->ahead->take(g->ahead->ctx, key, &b->cubin, &b->size, &b->log, &g->compile_wait_s);
    if (st != GB_OK)
        return st;
    if (x->n_exprs && !(*names = gb_names_read(names_path, x->n_exprs))) {
        free(b->cubin);
        b->cubin = NULL;
        return GB_ERR_UNSUPPORTED; /* no names on disk: compile here */
    }
    g->compiles++;
    return gb_load_cubin(b->cubin, mod);
}

/* The module of `key` from the disk cache (a hit only with its lowered
 * names); 0 when it is not there or damaged (then recompiled, not trusted). */
static int gb_module_from_disk(struct gb_gpu *g, const struct gb_nvrtc_program *x, const char *path,
                               const char *names_path, struct gb_module_built *b, CUmodule *mod, char ***names)
{
    if (!path[0] || (x->n_exprs && !(*names = gb_names_read(names_path, x->n_exprs))))
        return 0;
    if ((b->cubin = gb_read_file(path, &b->size)) && gb_cu->cuModuleLoadData(mod, b->cubin) == CUDA_SUCCESS) {
        g->disk_hits++;
        return 1;
    }
    *mod = NULL;
    free(b->cubin);
    b->cubin = NULL;
    gb_lowered_free(*names, x->n_exprs);
    *names = NULL;
    return 0;
}

/* The module of `key` from the compile pool, the disk cache, or NVRTC here;
 * *names: its lowered names (when the program has expressions). */
static enum gb_status gb_module_obtain(struct gb_gpu *g, const char *key, const struct gb_nvrtc_program *x,
                                       const char *const *opts, int n_opts, CUmodule *mod, char ***names)
{
    struct gb_module_built b;
    char dir[4096], path[4200], names_path[4200];
    memset(&b, 0, sizeof b);
    *mod = NULL;
    *names = NULL;
    gb_cache_path(key, g->arch, dir, sizeof dir, path, sizeof path, names_path, sizeof names_path);
    enum gb_status st = gb_module_from_pool(g, key, x, names_path, &b, mod, names);
    if (st != GB_ERR_UNSUPPORTED)
        goto out;
    if (gb_module_from_disk(g, x, path, names_path, &b, mod, names)) {
        st = GB_OK;
        goto out;
    }
    st = gb_compile_to_cache(g->arch, x, opts, n_opts, dir, path, names_path, &b, names);
    g->compile_cpu_s += b.cpu_s;
    if (st == GB_OK) {
        g->compiles++;
        st = gb_load_cubin(b.cubin, mod);
    }
out:
    if (st == GB_ERR_COMPILE) {
        free(g->compile_log);
        g->compile_log = b.log;
        b.log = NULL;
    }
    if (st != GB_OK) {
        gb_lowered_free(*names, x->n_exprs);
        *names = NULL;
    }
    free(b.log);
    free(b.cubin);
    return st;
}

static enum gb_status gb_gpu_module_compile(struct gb_gpu *g, const struct gb_nvrtc_program *x,
                                            const char *const *opts, int n_opts, CUmodule *out,
                                            const char *const **lowered)
{
    enum gb_status st;
    char key[GB_MODULE_KEY_LEN], **names = NULL;
    struct gb_module_entry *e = NULL;
    CUmodule mod = NULL;
    *out = NULL;
    if (lowered)
        *lowered = NULL;
    if (!x->name || !x->source)
        return gb_error_set(GB_ERR_USAGE, "a kernel to compile needs a name and source text");
    if ((st = gb_key_of(g->arch, x, opts, n_opts, key)) != GB_OK)
        return st;
    for (e = g->modules; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            goto found;
    if ((st = gb_module_obtain(g, key, x, opts, n_opts, &mod, &names)) != GB_OK)
        return st;
    if (!(e = calloc(1, sizeof *e))) {
        gb_cu->cuModuleUnload(mod);
        gb_lowered_free(names, x->n_exprs);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    snprintf(e->key, sizeof e->key, "%s", key);
    e->mod = mod;
    e->lowered = names;
    e->n_lowered = names ? x->n_exprs : 0;
    e->next = g->modules;
    g->modules = e;
found:
    *out = e->mod;
    if (lowered)
        *lowered = (const char *const *)e->lowered;
    return GB_OK;
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
    return gb_util_run(g, "gb_flush", (size_t)n, args);
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
    if ((st = gb_util_run(g, "gb_flush_read_last", n, args)) == GB_OK && (st = gb_gpu_sync(g)) == GB_OK) {
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
        st = gb_util_run(g, "gb_flush_read", (size_t)n, args);
    return st;
}

/* GB_FLUSH_EMPTY: every line of the flush buffer out of the L2, unwritten. */
static enum gb_status gb_flush_discard(struct gb_gpu *g)
{
    unsigned long long n = g->flush_bytes / 128;
    void *args[] = {&g->flush_buf, &n};
    return gb_util_run(g, "gb_flush_discard", (size_t)n, args);
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

int gb_gpu_sm_clock_mhz(const struct gb_gpu *g)
{
    return gb_nvml_sm_clock_mhz(g->info.pci_bus_id);
}

void gb_gpu_driver_release(char *buf, size_t n)
{
    gb_nvml_driver_release(buf, n);
}
