/* gpu_module.c - the modules of an opened device: kernels compiled by NVRTC
 * (or a pool of compilers), kept in an on-disk cache keyed by source,
 * options and compiler, loaded once per device and looked up by name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Unloads the modules of g's memory cache and forgets them. */
void gb_gpu_unload_modules(struct gb_gpu *g)
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
void gb_gpu_forget_modules(struct gb_gpu *g)
{
    for (struct gb_module_entry *e = g->modules, *next; e; e = next) {
        next = e->next;
        gb_lowered_free(e->lowered, e->n_lowered);
        free(e);
    }
    g->modules = NULL;
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
        if (len > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len + 1))) {
            if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
                free(buf);
                buf = NULL;
            } else {
                buf[len] = '\0'; /* a text file reads as a string */
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
    if (gb_compiler_for(x->user) != GB_COMPILER_NVRTC) {
        /* Another compiler's cubin is another module; NVRTC's keys stay as they were. */
        char ver[32] = "";
        if ((st = gb_nvcc_version(ver, sizeof ver)) != GB_OK)
            return st;
        gb_hash_update(h, "nvcc", 4);
        gb_hash_update(h, ver, strlen(ver));
    }
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

/* The disk cache's two files of `key` built for `tag` (an architecture):
 * <key>-<tag>.<ext_a> into a and <key>-<tag>.<ext_b> into b ("" each when
 * there is no cache directory); their directory into dir. */
static void gb_cache_files(const char *key, const char *tag, const char *ext_a, const char *ext_b, char *dir,
                           size_t dn, char *a, size_t an, char *b, size_t bn)
{
    gb_cache_dir(dir, dn);
    a[0] = b[0] = '\0';
    if (dir[0]) {
        snprintf(a, an, "%s/%s-%s.%s", dir, key, tag, ext_a);
        snprintf(b, bn, "%s/%s-%s.%s", dir, key, tag, ext_b);
    }
}

/* The cubin of `key` into path and its lowered names into names. */
static void gb_cache_path(const char *key, const char *arch, char *dir, size_t dn, char *path, size_t pn,
                          char *names, size_t nn)
{
    gb_cache_files(key, arch, "cubin", "names", dir, dn, path, pn, names, nn);
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
    b->cpu_s += (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9 + gb_nvcc_take_cpu_s();
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

/* The cached PTX at `path` (and its entry's name when asked): 1 when both read. */
static int gb_ptx_cached(const char *path, const char *entry_path, char **ptx, char *entry, size_t n_entry)
{
    size_t size = 0;
    if (!path[0] || !(*ptx = gb_read_file(path, &size)))
        return 0;
    if (!entry || !n_entry)
        return 1;
    char *name = gb_read_file(entry_path, &size); /* the name and a newline */
    if (name && size <= n_entry && name[size - 1] == '\n') {
        snprintf(entry, n_entry, "%.*s", (int)size - 1, name);
        free(name);
        return 1;
    }
    free(name);
    free(*ptx);
    *ptx = NULL;
    return 0;
}

enum gb_status gb_module_ptx(const char *arch, const struct gb_nvrtc_program *x, const char *const *opts,
                             int n_opts, char **ptx, char *entry, size_t n_entry)
{
    char key[GB_MODULE_KEY_LEN], virt[32], dir[4096], path[4200], entry_path[4200];
    gb_nvrtc_virtual_arch(arch, virt, sizeof virt);
    *ptx = NULL;
    if (!x->name || !x->source)
        return gb_error_set(GB_ERR_USAGE, "a kernel to compile needs a name and source text");
    enum gb_status st = gb_key_of(virt, x, opts, n_opts, key);
    if (st != GB_OK)
        return st;
    /* the PTX, and its entry's lowered name beside it */
    gb_cache_files(key, virt, "ptx", "entry", dir, sizeof dir, path, sizeof path, entry_path, sizeof entry_path);
    if (gb_ptx_cached(path, entry_path, ptx, entry, n_entry))
        return GB_OK;
    char name[GB_KERNEL_NAME_LEN + 1] = "";
    if ((st = gb_nvrtc_program_ptx(x, arch, opts, n_opts, ptx, name, sizeof name)) != GB_OK || !path[0])
        return st;
    if (entry && n_entry)
        snprintf(entry, n_entry, "%s", name);
    /* The entry's name first: a PTX file on disk always has its name beside it. */
    (void)gb_mkdir_p(dir);
    size_t len = strlen(name);
    name[len] = '\n';
    if (gb_write_file_atomic(entry_path, name, len + 1) == GB_OK)
        (void)gb_write_file_atomic(path, *ptx, strlen(*ptx));
    return GB_OK;
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
