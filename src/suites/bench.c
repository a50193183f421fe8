/* bench.c - what a bench row names: the kernel source it compiles. */
#include <stddef.h>
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
