/* bench.c - what a bench row names: the kernel source it compiles. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/suite.h"


enum gb_status gb_bench_kernel(const struct gb_bench *b, const char **name, const char **source)
{
    *name = NULL;
    *source = NULL;
    if (b->kernel_source) {
        *name = b->kernel_name ? b->kernel_name : b->name;
        *source = b->kernel_source;
    } else if (b->kernel_file) {
        if (!(*source = gb_kernel_source(b->kernel_file)))
            return gb_error_set(GB_ERR_USAGE, "%s: no embedded kernel source named %s", b->name, b->kernel_file);
        *name = b->kernel_file;
    }
    return GB_OK;
}

/* A bench that names its own architecture in its options (the last
 * --gpu-architecture wins: "sm_90a" for an architecture-specific feature)
 * runs only on a GPU of that architecture: GB_ERR_UNSUPPORTED elsewhere. */
static enum gb_status gb_bench_arch_check(const struct gb_gpu *g, const struct gb_bench *b,
                                          const char *const *opts, int n_opts)
{
    static const char flag[] = "--gpu-architecture=";
    const char *want = NULL;
    for (int i = 0; i < n_opts; i++)
        if (strncmp(opts[i], flag, sizeof flag - 1) == 0)
            want = opts[i] + sizeof flag - 1;
    size_t n = strlen(g->arch);
    if (!want || (strncmp(want, g->arch, n) == 0 && (want[n] == '\0' || strcmp(want + n, "a") == 0)))
        return GB_OK;
    return gb_error_set(GB_ERR_UNSUPPORTED, "%s is compiled for %s; this GPU is %s", b->name, want, g->arch);
}

enum gb_status gb_bench_module(struct gb_gpu *g, const struct gb_bench *b, const char *const *opts, int n_opts,
                               CUmodule *out)
{
    const char *name, *source;
    enum gb_status st = gb_bench_kernel(b, &name, &source);
    *out = NULL;
    if (st != GB_OK || !source)
        return st;
    if ((st = gb_bench_arch_check(g, b, opts, n_opts)) != GB_OK)
        return st;
    if (b->kernel_program) {
        char exprs[GB_BENCH_MAX_EXPRS][GB_KERNEL_NAME_LEN];
        struct gb_nvrtc_program prog = {.name = name, .source = source};
        if ((st = b->kernel_program(b->ctx, opts, n_opts, &prog, exprs, GB_BENCH_MAX_EXPRS)) != GB_OK)
            return st;
        return gb_gpu_module_program(g, &prog, opts, n_opts, out, NULL);
    }
    return gb_gpu_module_source(g, name, source, opts, n_opts, out);
}

/* A point of bench `b` at `axes` (no GPU): what kernel_opts reads. */
static void gb_bench_point_at(const struct gb_bench *b, const struct gb_kv *axes, int n_axes, struct gb_point *p)
{
    memset(p, 0, sizeof *p);
    p->bench = b;
    for (int i = 0; i < n_axes && p->n_axes < GB_MAX_AXES; i++, p->n_axes++) {
        p->axis_name[p->n_axes] = axes[i].name;
        p->axis_str[p->n_axes] = axes[i].value;
        p->axis_int[p->n_axes] = strtol(axes[i].value, NULL, 10);
    }
}

enum gb_status gb_bench_ptx(const struct gb_bench *b, const struct gb_kv *axes, int n_axes, const char *arch,
                            char **ptx, char *entry, size_t n_entry)
{
    const char *name, *source;
    char opts[GB_MAX_AXES * 2][GB_OPT_LEN], exprs[GB_BENCH_MAX_EXPRS][GB_KERNEL_NAME_LEN];
    const char *optp[GB_MAX_AXES * 2];
    struct gb_point p;
    enum gb_status st = gb_bench_kernel(b, &name, &source);
    *ptx = NULL;
    if (entry && n_entry)
        entry[0] = '\0';
    if (st != GB_OK)
        return st;
    if (!source)
        return gb_error_set(GB_ERR_USAGE, "%s compiles no kernel", b->name);
    gb_bench_point_at(b, axes, n_axes, &p);
    int n_opts = b->kernel_opts ? b->kernel_opts(&p, b->ctx, opts, GB_MAX_AXES * 2) : 0;
    for (int i = 0; i < n_opts; i++)
        optp[i] = opts[i];
    struct gb_nvrtc_program prog = {.name = name, .source = source};
    if (b->kernel_program &&
        (st = b->kernel_program(b->ctx, optp, n_opts, &prog, exprs, GB_BENCH_MAX_EXPRS)) != GB_OK)
        return st;
    return gb_module_ptx(arch, &prog, optp, n_opts, ptx, entry, n_entry);
}
