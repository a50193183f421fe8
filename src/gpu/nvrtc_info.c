/* nvrtc_info.c - ptxas's report of each kernel, through NVRTC's log
 * (nvrtc_info.h). NVRTC is the library nvrtc.c opened: its handle is taken
 * again here without loading anything new. */
#include <dlfcn.h>
#include "gpu/nvrtc_decls.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/nvrtc_info.h"

#define GB_NVI_FUNCS(X) \
    X(nvrtcGetErrorString) X(nvrtcCreateProgram) X(nvrtcDestroyProgram) X(nvrtcCompileProgram) \
    X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcAddNameExpression) X(nvrtcGetLoweredName)

static struct {
#define GB_NVI_MEMBER(name) __typeof__(&name) name;
    GB_NVI_FUNCS(GB_NVI_MEMBER)
#undef GB_NVI_MEMBER
} nvi;

static pthread_once_t nvi_once = PTHREAD_ONCE_INIT;
static int nvi_ok;

/* The NVRTC that gb_nvrtc_version loaded, by the names nvrtc.c tries. */
static void gb_nvi_bind(void)
{
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
    char ver[32];
    void *lib = NULL;
    if (gb_nvrtc_version(ver, sizeof ver) != GB_OK)
        return;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib)
        return;
#define GB_NVI_LOAD(name) \
    if (!(*(void **)&nvi.name = dlsym(lib, #name))) \
        return;
    GB_NVI_FUNCS(GB_NVI_LOAD)
#undef GB_NVI_LOAD
    nvi_ok = 1;
}

/* A number after `key` in `line` (before its end), or -1. */
static long gb_num_before(const char *line, size_t len, const char *key)
{
    const char *k = strstr(line, key);
    if (!k || (size_t)(k - line) >= len)
        return -1;
    const char *p = k;
    while (p > line && p[-1] == ' ')
        p--;
    while (p > line && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return strtol(p, NULL, 10);
}

/* The entry of `name` in res (added when new), or NULL when full. */
static struct gb_kernel_res *gb_res_of(struct gb_kernel_res *res, int max, int *n, const char *name, size_t len)
{
    for (int i = 0; i < *n; i++)
        if (strlen(res[i].name) == len && strncmp(res[i].name, name, len) == 0)
            return &res[i];
    if (*n >= max || len >= sizeof res[0].name)
        return NULL;
    struct gb_kernel_res *r = &res[(*n)++];
    memset(r, 0, sizeof *r);
    memcpy(r->name, name, len);
    return r;
}

/* Parses one line about the current function *cur. */
static void gb_ptxas_line(const char *line, size_t len, struct gb_kernel_res *cur)
{
    long x;
    if (!cur)
        return;
    if ((x = gb_num_before(line, len, " bytes stack frame")) >= 0)
        cur->stack_frame = x;
    if ((x = gb_num_before(line, len, " bytes spill stores")) >= 0)
        cur->spill_stores = x;
    if ((x = gb_num_before(line, len, " bytes spill loads")) >= 0)
        cur->spill_loads = x;
    if ((x = gb_num_before(line, len, " registers")) >= 0)
        cur->regs = (int)x;
    if ((x = gb_num_before(line, len, " barriers")) >= 0)
        cur->barriers = (int)x;
    if ((x = gb_num_before(line, len, " bytes smem")) >= 0)
        cur->smem = x;
}

void gb_ptxas_parse(const char *log, struct gb_kernel_res *res, int max, int *n)
{
    struct gb_kernel_res *cur = NULL;
    static const char *const heads[] = {"Compiling entry function '", "Function properties for "};
    *n = 0;
    for (const char *line = log; line && *line;) {
        size_t len = strcspn(line, "\n");
        for (int h = 0; h < 2; h++) {
            const char *k = strstr(line, heads[h]);
            if (!k || (size_t)(k - line) >= len)
                continue;
            const char *name = k + strlen(heads[h]);
            size_t nl = h == 0 ? strcspn(name, "'\n") : strcspn(name, " \n");
            cur = gb_res_of(res, max, n, name, nl);
        }
        gb_ptxas_line(line, len, cur);
        line = line[len] ? line + len + 1 : NULL;
    }
}

/* The log of `prog` (malloc'ed; NULL when out of memory). */
static char *gb_nvi_log(nvrtcProgram prog)
{
    size_t n = 0;
    nvi.nvrtcGetProgramLogSize(prog, &n);
    char *text = malloc(n + 1);
    if (text) {
        text[0] = '\0';
        if (n)
            nvi.nvrtcGetProgramLog(prog, text);
        text[n] = '\0';
    }
    return text;
}

/* The first line of the log naming an error, into buf. */
static void gb_nvi_first_error(const char *log, char *buf, size_t n)
{
    const char *pick = NULL;
    for (const char *line = log; line && *line && !pick;) {
        size_t len = strcspn(line, "\n");
        const char *e = strstr(line, "error");
        if (e && (size_t)(e - line) < len)
            pick = line;
        line = line[len] ? line + len + 1 : NULL;
    }
    pick = pick ? pick : log ? log : "";
    snprintf(buf, n, "%.*s", (int)strcspn(pick, "\n"), pick);
}

static enum gb_status gb_nvi_lowered(nvrtcProgram prog, const struct gb_nvrtc_program *x, struct gb_nvrtc_info *out)
{
    if (!x->n_exprs)
        return GB_OK;
    if (!(out->lowered = calloc((size_t)x->n_exprs, sizeof *out->lowered)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", x->name);
    for (int i = 0; i < x->n_exprs; i++) {
        const char *low = NULL;
        if (nvi.nvrtcGetLoweredName(prog, x->exprs[i], &low) != NVRTC_SUCCESS || !low)
            return gb_error_set(GB_ERR_NVRTC, "%s: no lowered name for %s", x->name, x->exprs[i]);
        if (!(out->lowered[i] = strdup(low)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory compiling %s", x->name);
        out->n_lowered = i + 1;
    }
    return GB_OK;
}

enum gb_status gb_nvrtc_info(const struct gb_nvrtc_program *x, const char *arch, const char *const *opts,
                             int n_opts, struct gb_nvrtc_info *out)
{
    enum gb_status st = GB_OK;
    nvrtcProgram prog = NULL;
    const char *all[72];
    char archopt[64], first[512];
    int k = 0;
    memset(out, 0, sizeof *out);
    pthread_once(&nvi_once, gb_nvi_bind);
    if (!nvi_ok)
        return gb_error_set(GB_ERR_NVRTC, "NVRTC could not be loaded; install the CUDA toolkit or set CUDA_HOME");
    if (n_opts > 64)
        return gb_error_set(GB_ERR_USAGE, "%s: more than 64 compile options", x->name);
    /* The options nvrtc.c compiles with, and ptxas's report. */
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
    all[k++] = archopt;
    all[k++] = "--std=c++17";
    all[k++] = "-lineinfo";
    all[k++] = "-Xptxas=-v";
    if (gb_nvrtc_include_opt()[0])
        all[k++] = gb_nvrtc_include_opt();
    for (int i = 0; i < n_opts; i++)
        all[k++] = opts[i];
    nvrtcResult r = nvi.nvrtcCreateProgram(&prog, x->source, x->name, x->n_headers,
                                           (const char *const *)x->header_sources,
                                           (const char *const *)x->header_names);
    if (r != NVRTC_SUCCESS)
        return gb_error_set(GB_ERR_NVRTC, "nvrtcCreateProgram failed for %s: %s", x->name,
                            nvi.nvrtcGetErrorString(r));
    for (int i = 0; i < x->n_exprs && r == NVRTC_SUCCESS; i++)
        r = nvi.nvrtcAddNameExpression(prog, x->exprs[i]);
    if (r == NVRTC_SUCCESS)
        r = nvi.nvrtcCompileProgram(prog, k, all);
    out->log = gb_nvi_log(prog);
    if (r == NVRTC_ERROR_COMPILATION) {
        gb_nvi_first_error(out->log, first, sizeof first);
        st = gb_error_set(GB_ERR_COMPILE, "%s failed to compile for %s: %s", x->name, arch, first);
    } else if (r != NVRTC_SUCCESS) {
        st = gb_error_set(GB_ERR_NVRTC, "NVRTC failed on %s: %s", x->name, nvi.nvrtcGetErrorString(r));
    } else {
        gb_ptxas_parse(out->log, out->res, (int)(sizeof out->res / sizeof out->res[0]), &out->n_res);
        st = gb_nvi_lowered(prog, x, out);
    }
    nvi.nvrtcDestroyProgram(&prog);
    return st;
}

void gb_nvrtc_info_free(struct gb_nvrtc_info *info)
{
    for (int i = 0; i < info->n_lowered; i++)
        free(info->lowered[i]);
    free(info->lowered);
    free(info->log);
    memset(info, 0, sizeof *info);
}

const struct gb_kernel_res *gb_nvrtc_info_find(const struct gb_nvrtc_info *info, const char *name)
{
    for (int i = 0; i < info->n_res; i++)
        if (strcmp(info->res[i].name, name) == 0)
            return &info->res[i];
    return NULL;
}
