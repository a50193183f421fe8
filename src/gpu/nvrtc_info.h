/* nvrtc_info.h - what ptxas reports of each kernel it compiles: registers,
 * spills, stack frame and static shared memory, read from NVRTC's log of a
 * compile with "-Xptxas=-v" (NVRTC 12 and 13 accept it; the log is the one
 * source that has spill counts: a cubin's attributes have none). No GPU is
 * needed. Used by `gpubound check`. */
#ifndef GB_GPU_NVRTC_INFO_H
#define GB_GPU_NVRTC_INFO_H

#include <stddef.h>

#include "gpubound/gpu.h"
#include "gpubound/status.h"

/* The option that lets NVRTC find the CUDA toolkit's headers (cuda_fp16.h,
 * cuda_bf16.h, cuda_fp8.h, mma.h), which it does not find on its own:
 * "--include-path=HOME/include" of the first of $CUDA_HOME, $CUDA_PATH and
 * /usr/local/cuda that has them; "" when none has (a kernel that includes
 * them then fails to compile, saying so). Looked up once; thread-safe.
 * Every compile passes it (nvrtc.c, nvrtc_info.c); it is not one of the
 * options a compile error names. */
const char *gb_nvrtc_include_opt(void);

/* The first of $CUDA_HOME, $CUDA_PATH and /usr/local/cuda under which
 * `rel` passes access(mode), into out; 0 (out untouched) when none does.
 * The toolkit's headers (NVRTC's include path) and its nvcc. */
int gb_cuda_home_file(const char *rel, int mode, char *out, size_t n);

/* One entry function of a ptxas -v log. */
struct gb_kernel_res {
    char name[GB_KERNEL_NAME_LEN];   /* the lowered (mangled) name */
    int regs;
    int barriers;
    long stack_frame;                /* bytes per thread */
    long spill_stores, spill_loads;  /* bytes per thread */
    long smem;                       /* static shared memory, bytes per block */
};

/* Parses the ptxas -v lines of `log` into res[0..*n) (at most max
 * functions; a function seen twice keeps its last figures). */
void gb_ptxas_parse(const char *log, struct gb_kernel_res *res, int max, int *n);

/* What one compile of a program gave. */
struct gb_nvrtc_info {
    char *log;                       /* NVRTC's whole log (malloc'ed), success or not */
    char **lowered;                  /* prog->n_exprs lowered names (malloc'ed each), on success */
    int n_lowered;
    int n_res;
    struct gb_kernel_res res[32];
};

/* Compiles `x` for `arch` ("sm_90") with `opts` and "-Xptxas=-v", keeping
 * the log on success too, and parses it. GB_ERR_COMPILE (message: the log's
 * first error line) with out->log set; GB_ERR_NVRTC when NVRTC cannot be
 * loaded. Thread-safe for separate programs. Free with gb_nvrtc_info_free. */
enum gb_status gb_nvrtc_info(const struct gb_nvrtc_program *x, const char *arch, const char *const *opts,
                             int n_opts, struct gb_nvrtc_info *out);
void gb_nvrtc_info_free(struct gb_nvrtc_info *info);

/* The figures of the lowered name `name` in `info`, or NULL. */
const struct gb_kernel_res *gb_nvrtc_info_find(const struct gb_nvrtc_info *info, const char *name);

#endif
