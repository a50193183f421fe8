/* analyze.h - what a CUDA kernel does, read from its source with libclang:
 * the loops around each statement, the global- and shared-memory accesses,
 * and the floating-point operations, each with its per-thread execution
 * count as an expression of the source's own names (macros given as -D
 * defines, kernel parameters, blockDim/gridDim, local constants).
 *
 * libclang is opened at run time (dlopen "libclang-14.so.1", then
 * "libclang.so.1", then "libclang.so"), so gpubound starts on machines
 * without it; there every call here returns GB_ERR_UNSUPPORTED with a line
 * saying what to install. The source is parsed as CUDA device code
 * (-x cuda --cuda-device-only -nocudainc -nocudalib) with a small built-in
 * header of CUDA's builtin variables, qualifiers and math functions.
 *
 * How counts are read (docs/models.md, "LPBM"):
 *   - a for loop whose header is "v = A; v <op> B; v += S" (or ++, --,
 *     -= S, >>= 1, /= 2, <<= 1, *= 2) runs a counted number of times, an
 *     expression of A, B and S; any other loop (while, do, other headers) is
 *     undecided, and so is everything inside it; a block-strided loop
 *     (v = threadIdx.x; v < B; v += blockDim.x) counts the iterations of
 *     the thread that has most, ceil(B / blockDim.x): per-thread counts are
 *     those of the block's critical path;
 *   - a statement executes the product of its enclosing loops' trip counts;
 *   - a branch is counted as taken (every warp executes an instruction that
 *     one of its threads needs): an upper bound, listed as a note;
 *   - a global access subscripts a pointer parameter of the kernel (or a
 *     local pointer initialized from one), a shared access an array declared
 *     __shared__; a subscript followed by '=' is a store, by a compound
 *     assignment a load and a store, else a load;
 *   - an operation is a floating-point + - * / (compound assignments
 *     included) or a call of a floating-point math function (fmaf, sincosf
 *     count 2);
 *   - a barrier is a call of __syncthreads (or its _count, _and, _or
 *     forms): every thread of the block waits there for the others;
 *   - shared accesses are counted as issued: where `#pragma unroll` runs
 *     `v = 0; v < B; v++` (B a compile-time constant) over the last
 *     subscript of a shared array, consecutive iterations' elements go in
 *     one vector access of up to 16 bytes, as the row length and B allow.
 *   - a call of a function the source defines (a __device__ helper, a
 *     template's definition, a struct's static member) is followed: its
 *     body is counted at the call, inside the loops around the call (a
 *     barrier in a helper called in a loop of T trips counts T times; a
 *     helper called twice counts twice), with each parameter standing for
 *     the call's argument as written (in parentheses) and each local
 *     declared outside the helper's own loops for its initializer, so
 *     trip counts come out in the kernel's names; a helper's local
 *     declared inside one of its loops stands for no fixed value (a loop
 *     bounded by it is undecided), and template parameters are not
 *     replaced. A pointer parameter's accesses take the space of the
 *     argument's array (a __shared__ tile passed in stays shared). A call
 *     of a function already being followed (recursion) or nested more
 *     than 8 calls deep, and a call of a function the source only
 *     declares, are not followed (a note says so). The math functions,
 *     atomics, barriers and shuffles above keep their meaning.
 *
 * Not thread-safe (libclang is loaded once, on first use).
 */
#ifndef GPUBOUND_ANALYZE_H
#define GPUBOUND_ANALYZE_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/cexpr.h"
#include "gpubound/status.h"

enum gb_kspace { GB_KSPACE_GLOBAL = 1, GB_KSPACE_SHARED = 2 };

/* A counted place: where, and how often per thread (an expression of the
 * source's names, "1" outside any loop); decided = 0 when a loop around it
 * has no count the analysis can read. */
struct gb_kcount {
    int line;
    int decided;
    char count[512];
};

struct gb_kloop {
    struct gb_kcount at;     /* the loop's own executions (its enclosing loops) */
    int depth;               /* 0 for an outermost loop */
    char header[200];        /* "for (int m = 0; m < n / TILE; m++)" */
    char trips[256];         /* trip count per execution, or "" when undecided */
    int unrolled;            /* `#pragma unroll` over `v = 0; v < B; v++`, B a compile-time constant */
    char why[160];           /* when undecided: what the header does not say */
};

struct gb_kaccess {
    struct gb_kcount at;
    enum gb_kspace space;
    int loads, stores;       /* per execution: 1/0, 0/1 or 1/1 (compound assignment) */
    int elem_bytes;          /* size of one element */
    char array[64];
    char text[160];          /* the subscript as written */
    /* Shared memory: the elements one access instruction takes (an
     * expression), "" for one. Set where the last subscript is the
     * variable of an enclosing unrolled loop and the others do not depend
     * on it: the unrolled iterations touch consecutive elements of a row,
     * and a vector access of 8 or 16 bytes takes as many as the row's and
     * the loop's alignment allow (the compiler's vector loads and stores). */
    char vector[400];
};

struct gb_kop {
    struct gb_kcount at;
    int n;                   /* operations per execution */
    char text[64];           /* "*", "+=", "sinf" */
};

/* An atomic operation (atomicAdd, atomicInc, ...): once per thread that
 * reaches it; under branches that hold thread indices at 0 (zero_dims: bit
 * 1 x, 2 y, 4 z), once per thread with those indices at 0: per block, the
 * product of blockDim over the other dimensions (`if (threadIdx.x == 0)`
 * in a 1-D block: once per block; `if (threadIdx.y == 0)`: blockDim.x x
 * blockDim.z times). */
struct gb_katomic {
    struct gb_kcount at;
    unsigned zero_dims;
    char text[64];           /* "atomicAdd" */
};

/* A barrier (__syncthreads): once per thread that reaches it. */
struct gb_kbarrier {
    struct gb_kcount at;
    char text[64];           /* "__syncthreads" */
};

struct gb_kernel_analysis {
    char kernel[128];
    char file[512];
    struct gb_kloop *loops;
    size_t n_loops;
    struct gb_kaccess *acc;
    size_t n_acc;
    struct gb_kop *ops;
    size_t n_ops;
    struct gb_katomic *atomics;
    size_t n_atomics;
    struct gb_kbarrier *barriers;
    size_t n_barriers;
    char **params;           /* the kernel's parameter names, in order */
    size_t n_params;
    char **notes;            /* branches counted as taken, calls not followed, parse errors */
    size_t n_notes;
    /* Names the count expressions may use besides the defines: local
     * variables with an initializer, and macros #defined in the source. */
    char **local_names, **local_inits;
    size_t n_locals;
};

/* Parses `source` (a CUDA file; `include_dir` added to the include path,
 * may be NULL) with `defines` ("NAME=VALUE", n_defines of them) and analyses
 * the kernel `kernel` (its name; for a template, the name before '<').
 * Fills *out (zeroed first). GB_ERR_UNSUPPORTED when libclang cannot be
 * opened, GB_ERR_FORMAT when the file does not parse into a translation
 * unit or holds no function of that name, GB_ERR_NOMEM. Release with
 * gb_analysis_release. */
GB_API enum gb_status gb_analysis_run(const char *source, const char *include_dir,
                               const char *const *defines, size_t n_defines, const char *kernel,
                               struct gb_kernel_analysis *out);

GB_API void gb_analysis_release(struct gb_kernel_analysis *a);

/* Whether libclang can be opened here (the library name in `buf`, when
 * given). */
GB_API int gb_analysis_available(char *buf, size_t n);

/* The per-thread totals of an analysis at one point: `lookup` resolves the
 * names the source does not define itself (-D defines, kernel parameters,
 * blockDim.x ...); local variables and source macros are resolved from the
 * analysis first. A total whose counts are undecided or cannot be evaluated
 * is NaN, with the reason in why_* (first one). */
struct gb_analysis_totals {
    double ops;              /* floating-point operations per thread */
    double global_bytes;     /* bytes loaded and stored in global memory per thread */
    double global_accesses;  /* global loads + stores per thread */
    double shared_accesses;  /* shared loads + stores per thread, a vector access counted once */
    double atomics_thread;   /* atomic operations per thread */
    double atomics_block;    /* atomic operations per block (under branches that hold thread
                              * indices at 0, times blockDim over the others) */
    double barriers;         /* barriers per thread */
    char why_ops[256], why_global[256], why_shared[256], why_atomics[256], why_barriers[256];
};

GB_API void gb_analysis_totals(const struct gb_kernel_analysis *a, gb_cexpr_lookup lookup, void *ctx,
                        struct gb_analysis_totals *out);

#endif
