/* nvrtc.c - NVRTC, opened at run time so that gpubound starts without it.
 * Compiles CUDA C to a cubin for one architecture; no GPU is needed. */
#include <dlfcn.h>
#include <pthread.h>
#include "gpu/nvrtc_decls.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpubound/gpu.h"
#include "gpu/gpu_internal.h"
#include "gpu/nvrtc_info.h"

#define GB_NVRTC_FUNCS(X) \
    X(nvrtcVersion) X(nvrtcGetErrorString) X(nvrtcCreateProgram) X(nvrtcDestroyProgram) \
    X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) \
    X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcGetPTXSize) X(nvrtcGetPTX) \
    X(nvrtcAddNameExpression) X(nvrtcGetLoweredName)

static struct {
#define GB_NVRTC_MEMBER(name) __typeof__(&name) name;
    GB_NVRTC_FUNCS(GB_NVRTC_MEMBER)
#undef GB_NVRTC_MEMBER
} nv;

static int nv_tried;
static enum gb_status nv_state = GB_ERR_NVRTC;
static char nv_msg[512];

static void *gb_nvrtc_dlopen(void)
{
    /* The versioned names first; then the toolkit's own folder, which is
     * often not in the loader's path. */
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
    char path[1024];
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib)
            return lib;
    }
    for (size_t h = 0; h < sizeof homes / sizeof homes[0]; h++) {
        if (!homes[h] || !homes[h][0])
            continue;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            snprintf(path, sizeof path, "%s/lib64/%s", homes[h], names[i]);
            void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (lib)
                return lib;
        }
    }
    return NULL;
}

static char nv_include[1100];
static pthread_once_t nv_include_once = PTHREAD_ONCE_INIT;

int gb_cuda_home_file(const char *rel, int mode, char *out, size_t n)
{
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    char path[1100];
    for (size_t h = 0; h < sizeof homes / sizeof homes[0]; h++) {
        if (!homes[h] || !homes[h][0] || strlen(homes[h]) > 1000)
            continue;
        snprintf(path, sizeof path, "%s/%s", homes[h], rel);
        if (access(path, mode) == 0) {
            snprintf(out, n, "%s", homes[h]);
            return 1;
        }
    }
    return 0;
}

static void gb_nvrtc_find_include(void)
{
    char home[1040];
    if (gb_cuda_home_file("include/cuda_fp16.h", R_OK, home, sizeof home))
        snprintf(nv_include, sizeof nv_include, "--include-path=%s/include", home);
}

const char *gb_nvrtc_include_opt(void)
{
    pthread_once(&nv_include_once, gb_nvrtc_find_include);
    return nv_include;
}

static enum gb_status gb_nvrtc_load(void)
{
    if (nv_tried) {
        if (nv_state != GB_OK)
            return gb_error_set(nv_state, "%s", nv_msg);
        return GB_OK;
    }
    nv_tried = 1;
    void *lib = gb_nvrtc_dlopen();
    if (!lib) {
        snprintf(nv_msg, sizeof nv_msg,
                 "NVRTC not found (libnvrtc.so.13 or .12); install the CUDA toolkit or set CUDA_HOME");
        return gb_error_set(nv_state, "%s", nv_msg);
    }
#define GB_NVRTC_LOAD(name)                                                       \
    if (!(*(void **)&nv.name = dlsym(lib, #name))) {                              \
        snprintf(nv_msg, sizeof nv_msg, "NVRTC lacks %s; install a CUDA 12 or newer toolkit", #name); \
        return gb_error_set(nv_state, "%s", nv_msg);                              \
    }
    GB_NVRTC_FUNCS(GB_NVRTC_LOAD)
#undef GB_NVRTC_LOAD
    nv_state = GB_OK;
    return GB_OK;
}

enum gb_status gb_nvrtc_version(char *buf, size_t n)
{
    enum gb_status st = gb_nvrtc_load();
    if (st != GB_OK)
        return st;
    int major = 0, minor = 0;
    nv.nvrtcVersion(&major, &minor);
    snprintf(buf, n, "%d.%d", major, minor);
    return GB_OK;
}

/* The first line of NVRTC's log that reports an error (else its first
 * line), without its newline, into buf. */
static void gb_nvrtc_first_error(const char *log, char *buf, size_t n)
{
    const char *line = log, *pick = NULL;
    while (line && *line && !pick) {
        size_t len = strcspn(line, "\n");
        const char *e = strstr(line, "error");
        if (e && (size_t)(e - line) < len)
            pick = line;
        line = line[len] ? line + len + 1 : NULL;
    }
    if (!pick)
        pick = log ? log : "";
    snprintf(buf, n, "%.*s", (int)strcspn(pick, "\n"), pick);
}

/* Compile failed: the message names the kernel, the architecture, the
 * options and NVRTC's first error; *log (when asked for) keeps the whole log. */
static enum gb_status gb_nvrtc_failed(nvrtcProgram prog, const char *name, const char *arch,
                                      const char *const *all, int k, char **log)
{
    size_t log_size = 0;
    char *text = NULL, first[512], optline[512] = "";
    nv.nvrtcGetProgramLogSize(prog, &log_size);
    if ((text = malloc(log_size + 1))) {
        nv.nvrtcGetProgramLog(prog, text);
        text[log_size] = '\0';
    }
    gb_nvrtc_first_error(text ? text : "(no log)", first, sizeof first);
    for (int i = 0; i < k; i++) {
        strncat(optline, " ", sizeof optline - strlen(optline) - 1);
        strncat(optline, all[i], sizeof optline - strlen(optline) - 1);
    }
    /* The error before the options: a record's reason is cut at 255 characters. */
    enum gb_status st = gb_error_set(GB_ERR_COMPILE, "kernel %s failed to compile for %s: %s (options:%s)", name,
                                     arch, first, optline[0] ? optline : " none");
    if (log)
        *log = text;
    else
        free(text);
    return st;
}

/* Creates and compiles a program for `arch` ("sm_90" or "compute_90"),
 * with the headers and name expressions of `x` (NULL: none); on success
 * *prog is left for the caller to read and destroy. On a compile error
 * *log (when log is not NULL) receives NVRTC's log (malloc'ed). */
static enum gb_status gb_nvrtc_build_x(const char *name, const char *source, const char *arch,
                                       const char *const *opts, int n_opts,
                                       const struct gb_nvrtc_program *x, nvrtcProgram *prog, char **log)
{
    enum gb_status st = GB_OK;
    const char **all = NULL;
    char archopt[64];
    *prog = NULL;
    all = calloc((size_t)n_opts + 5, sizeof *all);
    if (!all)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", name);
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
    int k = 0;
    all[k++] = archopt;
    all[k++] = "--std=c++17";
    all[k++] = "-lineinfo";
    if (gb_nvrtc_include_opt()[0])
        all[k++] = gb_nvrtc_include_opt();
    int fixed = k; /* the options every compile has; a failure names the others */
    for (int i = 0; i < n_opts; i++)
        all[k++] = opts[i];

    nvrtcResult r = nv.nvrtcCreateProgram(prog, source, name, x ? x->n_headers : 0,
                                          x ? (const char **)x->header_sources : NULL,
                                          x ? (const char **)x->header_names : NULL);
    if (r != NVRTC_SUCCESS) {
        *prog = NULL;
        st = gb_error_set(GB_ERR_NVRTC, "nvrtcCreateProgram failed for %s: %s", name,
                          nv.nvrtcGetErrorString(r));
        goto out;
    }
    for (int i = 0; x && i < x->n_exprs; i++)
        if ((r = nv.nvrtcAddNameExpression(*prog, x->exprs[i])) != NVRTC_SUCCESS) {
            st = gb_error_set(GB_ERR_NVRTC, "nvrtcAddNameExpression failed for %s in %s: %s", x->exprs[i], name,
                              nv.nvrtcGetErrorString(r));
            nv.nvrtcDestroyProgram(prog);
            *prog = NULL;
            goto out;
        }
    r = nv.nvrtcCompileProgram(*prog, k, all);
    if (r != NVRTC_SUCCESS) {
        st = gb_nvrtc_failed(*prog, name, arch, all + fixed, k - fixed, log);
        nv.nvrtcDestroyProgram(prog);
        *prog = NULL;
        goto out;
    }
out:
    free(all);
    return st;
}

static enum gb_status gb_nvrtc_build(const char *name, const char *source, const char *arch,
                                     const char *const *opts, int n_opts, nvrtcProgram *prog, char **log)
{
    return gb_nvrtc_build_x(name, source, arch, opts, n_opts, NULL, prog, log);
}

/* The lowered names of x's expressions, copied out of `prog`. */
/* Frees a NULL-terminated array of lowered names and the array. */
static void gb_names_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

static enum gb_status gb_nvrtc_lowered(nvrtcProgram prog, const struct gb_nvrtc_program *x, char ***lowered)
{
    char **v = calloc((size_t)x->n_exprs + 1, sizeof *v);
    if (!v)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", x->name);
    for (int i = 0; i < x->n_exprs; i++) {
        const char *low = NULL;
        nvrtcResult r = nv.nvrtcGetLoweredName(prog, x->exprs[i], &low);
        if (r != NVRTC_SUCCESS || !low || !(v[i] = strdup(low))) {
            gb_names_free(v);
            return r != NVRTC_SUCCESS ? gb_error_set(GB_ERR_NVRTC, "%s: no lowered name for %s: %s", x->name,
                                                     x->exprs[i], nv.nvrtcGetErrorString(r))
                                      : gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", x->name);
        }
    }
    *lowered = v;
    return GB_OK;
}

void gb_nvrtc_virtual_arch(const char *arch, char *buf, size_t n)
{
    snprintf(buf, n, "compute_%s", strncmp(arch, "sm_", 3) == 0 ? arch + 3 : arch);
}

/* gb_nvrtc_compile_program with nvcc's cubin: the lowered names (when
 * asked) from NVRTC's front end for the virtual architecture, the cubin
 * from nvcc. */
static enum gb_status gb_nvrtc_nvcc_program(const struct gb_nvrtc_program *x, const char *arch,
                                            const char *const *opts, int n_opts, char **cubin, size_t *size,
                                            char ***lowered, char **log)
{
    enum gb_status st = GB_OK;
    nvrtcProgram prog = NULL;
    char virt[32];
    if (lowered && x->n_exprs) {
        gb_nvrtc_virtual_arch(arch, virt, sizeof virt);
        if ((st = gb_nvrtc_build_x(x->name, x->source, virt, opts, n_opts, x, &prog, log)) != GB_OK)
            return st;
        st = gb_nvrtc_lowered(prog, x, lowered);
        nv.nvrtcDestroyProgram(&prog);
        if (st != GB_OK)
            return st;
    }
    st = gb_nvcc_compile_program(x, arch, opts, n_opts, cubin, size, log);
    if (st != GB_OK && lowered) {
        gb_names_free(*lowered);
        *lowered = NULL;
    }
    return st;
}

enum gb_status gb_nvrtc_compile_program(const struct gb_nvrtc_program *x, const char *arch,
                                        const char *const *opts, int n_opts, char **cubin, size_t *size,
                                        char ***lowered, char **log)
{
    enum gb_status st = gb_nvrtc_load();
    nvrtcProgram prog = NULL;
    nvrtcResult r;
    *cubin = NULL;
    *size = 0;
    if (lowered)
        *lowered = NULL;
    if (log)
        *log = NULL;
    if (st != GB_OK)
        return st;
    if (gb_compiler_for(x->user) == GB_COMPILER_NVCC)
        return gb_nvrtc_nvcc_program(x, arch, opts, n_opts, cubin, size, lowered, log);
    if ((st = gb_nvrtc_build_x(x->name, x->source, arch, opts, n_opts, x, &prog, log)) != GB_OK)
        return st;
    r = nv.nvrtcGetCUBINSize(prog, size);
    if (r == NVRTC_SUCCESS && *size > 0) {
        if (!(*cubin = malloc(*size))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", x->name);
            goto out;
        }
        r = nv.nvrtcGetCUBIN(prog, *cubin);
    }
    if (r != NVRTC_SUCCESS) {
        st = gb_error_set(GB_ERR_NVRTC, "nvrtcGetCUBIN failed for %s: %s", x->name, nv.nvrtcGetErrorString(r));
        goto out;
    }
    if (lowered)
        st = gb_nvrtc_lowered(prog, x, lowered);
out:
    if (st != GB_OK) {
        free(*cubin);
        *cubin = NULL;
    }
    nv.nvrtcDestroyProgram(&prog);
    return st;
}

enum gb_status gb_nvrtc_compile(const char *name, const char *source, const char *arch,
                                const char *const *opts, int n_opts, char **cubin, size_t *size)
{
    return gb_nvrtc_compile_log(name, source, arch, opts, n_opts, cubin, size, NULL);
}

enum gb_status gb_nvrtc_compile_log(const char *name, const char *source, const char *arch,
                                    const char *const *opts, int n_opts, char **cubin, size_t *size,
                                    char **log)
{
    enum gb_status st = gb_nvrtc_load();
    nvrtcProgram prog = NULL;
    nvrtcResult r;
    *cubin = NULL;
    *size = 0;
    if (st != GB_OK)
        return st;
    if (log)
        *log = NULL;
    if ((st = gb_nvrtc_build(name, source, arch, opts, n_opts, &prog, log)) != GB_OK)
        return st;
    r = nv.nvrtcGetCUBINSize(prog, size);
    if (r == NVRTC_SUCCESS && *size > 0) {
        *cubin = malloc(*size);
        if (!*cubin) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", name);
            goto out;
        }
        r = nv.nvrtcGetCUBIN(prog, *cubin);
    }
    if (r != NVRTC_SUCCESS) {
        st = gb_error_set(GB_ERR_NVRTC, "nvrtcGetCUBIN failed for %s: %s", name, nv.nvrtcGetErrorString(r));
        free(*cubin);
        *cubin = NULL;
        goto out;
    }
out:
    if (prog)
        nv.nvrtcDestroyProgram(&prog);
    return st;
}

/* The PTX of a compiled `prog` (NUL-terminated, malloc'ed). */
static enum gb_status gb_nvrtc_get_ptx(nvrtcProgram prog, const char *name, char **ptx)
{
    size_t size = 0;
    nvrtcResult r = nv.nvrtcGetPTXSize(prog, &size);
    *ptx = NULL;
    if (r == NVRTC_SUCCESS && size > 0) {
        if (!(*ptx = malloc(size + 1)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", name);
        r = nv.nvrtcGetPTX(prog, *ptx);
        (*ptx)[size] = '\0';
    }
    if (r != NVRTC_SUCCESS || size == 0) {
        free(*ptx);
        *ptx = NULL;
        return gb_error_set(GB_ERR_NVRTC, "nvrtcGetPTX failed for %s: %s", name,
                            r != NVRTC_SUCCESS ? nv.nvrtcGetErrorString(r) : "empty PTX");
    }
    return GB_OK;
}

enum gb_status gb_nvrtc_program_ptx(const struct gb_nvrtc_program *x, const char *arch, const char *const *opts,
                                    int n_opts, char **ptx, char *entry, size_t n_entry)
{
    enum gb_status st = gb_nvrtc_load();
    nvrtcProgram prog = NULL;
    char virt[32], **lowered = NULL;
    *ptx = NULL;
    if (st != GB_OK)
        return st;
    gb_nvrtc_virtual_arch(arch, virt, sizeof virt);
    if ((st = gb_nvrtc_build_x(x->name, x->source, virt, opts, n_opts, x, &prog, NULL)) != GB_OK)
        return st;
    st = gb_nvrtc_get_ptx(prog, x->name, ptx);
    if (st == GB_OK && entry && n_entry && x->n_exprs > 0 && (st = gb_nvrtc_lowered(prog, x, &lowered)) == GB_OK)
        snprintf(entry, n_entry, "%s", lowered[0]);
    gb_names_free(lowered);
    if (st != GB_OK) {
        free(*ptx);
        *ptx = NULL;
    }
    nv.nvrtcDestroyProgram(&prog);
    return st;
}

enum gb_status gb_nvrtc_compile_ptx(const char *name, const char *source, const char *arch,
                                    const char *const *opts, int n_opts, char **ptx)
{
    struct gb_nvrtc_program x = {.name = name, .source = source};
    return gb_nvrtc_program_ptx(&x, arch, opts, n_opts, ptx, NULL, 0);
}
