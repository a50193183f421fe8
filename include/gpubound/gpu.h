/* gpu.h - the GPU runtime: the CUDA driver opened through dlopen, a device
 * with its primary context and stream, device memory, and kernels compiled
 * by NVRTC from the sources embedded in the binary or from source text.
 *
 * libcuda is never linked: the first call that needs it opens
 * "libcuda.so.1" and fills one table of versioned entry points through
 * cuGetProcAddress. Without a driver every function here returns
 * GB_ERR_NO_GPU and the CPU-only parts of gpubound keep working.
 * None of this is thread-safe; gpubound drives one device from one thread.
 */
#ifndef GPUBOUND_GPU_H
#define GPUBOUND_GPU_H

#include "gpubound/api.h"

#include "gpubound/cuda_decls.h"
#include <stddef.h>
#include <stdint.h>

#include "gpubound/device.h"
#include "gpubound/status.h"

/* ---- devices (src/gpu/device.c) ---- */

/* Number of CUDA devices, opening the driver on first use. Returns
 * GB_ERR_NO_GPU (with the reason in gb_error_message) when there is no
 * driver or no device. */
GB_API enum gb_status gb_device_count(int *count);

/* Fills `info` for device `ordinal` from the driver. */
GB_API enum gb_status gb_device_query(int ordinal, struct gb_device_info *info);

/* "sm_90" style architecture name of the device; `buf` of at least 16 bytes. */
GB_API void gb_device_arch(const struct gb_device_info *info, char *buf, size_t n);

/* The driver entry points gpubound uses, filled once by gb_cuda_load.
 * Members keep the driver's names, so calls read `gb_cu->cuMemAlloc(...)`. */
#define GB_CUDA_FUNCS(X) \
    X(cuInit) X(cuDriverGetVersion) X(cuGetErrorString) X(cuGetErrorName) \
    X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) \
    X(cuDeviceTotalMem) X(cuDeviceGetUuid) X(cuDeviceGetPCIBusId) \
    X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuDevicePrimaryCtxReset) \
    X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuStreamQuery) X(cuEventQuery) X(cuMemAlloc) X(cuMemFree) X(cuMemGetInfo) \
    X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) \
    X(cuMemcpyDtoDAsync) X(cuMemsetD8Async) X(cuMemsetD32Async) \
    X(cuMemHostAlloc) X(cuMemFreeHost) \
    X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) X(cuModuleGetGlobal) \
    X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuFuncSetCacheConfig) X(cuLaunchKernel) \
    X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) \
    X(cuStreamBeginCapture) X(cuStreamEndCapture) \
    X(cuGraphInstantiateWithFlags) X(cuGraphLaunch) X(cuGraphExecDestroy) X(cuGraphDestroy) \
    X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize) \
    X(cuEventElapsedTime) \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags) \
    X(cuCtxGetLimit) X(cuCtxSetLimit) X(cuCtxResetPersistingL2Cache)

struct gb_cuda_api {
#define GB_CUDA_MEMBER(name) __typeof__(&name) name;
    GB_CUDA_FUNCS(GB_CUDA_MEMBER)
#undef GB_CUDA_MEMBER
};

/* The filled table, or NULL before a successful gb_cuda_load. */
extern const struct gb_cuda_api *gb_cu;

/* Opens the driver and fills gb_cu (once; later calls return the remembered
 * result). GB_ERR_NO_GPU with the reason when libcuda.so.1 is missing, too
 * old, or cuInit fails. */
GB_API enum gb_status gb_cuda_load(void);

/* Converts a failed driver result into a status with the call, file:line
 * and the driver's error name and string. Out-of-memory becomes
 * GB_ERR_DEVICE_OOM, a sticky error that loses the context (gb_cuda_sticky)
 * GB_ERR_DEVICE_LOST. Use through GB_CU_CHECK. */
GB_API enum gb_status gb_cuda_fail(CUresult r, const char *call, const char *file, int line);

/* Whether `r` is one of the errors after which the context is unusable
 * (an illegal address, a misaligned access, an illegal instruction, a
 * device assert, an uncorrectable ECC error, ...): every later call in the
 * context returns it, and the primary context cannot be retained again:
 * only a new process can use the device (a run goes on in one). */
GB_API int gb_cuda_sticky(CUresult r);

/* Evaluates a driver call; on failure returns its converted status from the
 * enclosing function... via `st` and `goto out` (the one cleanup path). */
#define GB_CU_CHECK(st, call)                                                  \
    do {                                                                       \
        CUresult gb__r = (call);                                               \
        if (gb__r != CUDA_SUCCESS) {                                           \
            (st) = gb_cuda_fail(gb__r, #call, __FILE__, __LINE__);             \
            goto out;                                                          \
        }                                                                      \
    } while (0)

/* An opened device: its limits, primary context and the stream all
 * benchmark work runs on. */
struct gb_gpu {
    struct gb_device_info info;
    CUdevice dev;
    CUcontext ctx;
    CUstream stream;
    char arch[16];            /* "sm_90" */
    CUmodule util;            /* gpubound's own helper kernels (fill, compare, flush) */
    CUmodule flush_code;      /* the empty flush's code kernel (flush_code.cu), loaded on first use */
    CUdeviceptr flush_buf;    /* allocated on first L2 flush */
    double busy_s;            /* monotonic time (gb_measure_now_s) the GPU's last work for a point ended
                               * (its samples, or its verification); 0: none */
    double spell_s;           /* when the spell of work that ended at busy_s began (gb_busy_mark) */
    /* The last point whose samples ran: its bench, shared state's
     * generation (share_gen when it was made) and launch length (ns,
     * its median): a point of a verify_last bench on the same shared state
     * is warmed by it (harness.c). */
    const void *warm_bench;
    unsigned long warm_share_gen;
    double warm_launch_ns;
    unsigned long share_gen;  /* shared states made so far (gb_share_acquire) */
    size_t flush_bytes;
    CUdeviceptr scratch;      /* 8 bytes for gpubound's own reductions */
    struct gb_module_entry *modules; /* loaded modules by cache key */
    int compiles;             /* NVRTC compilations this process (disk-cache misses) */
    int disk_hits;            /* modules loaded from the disk cache */
    double compile_cpu_s;     /* CPU seconds of this thread's own NVRTC compilations */
    double compile_wait_s;    /* seconds waited for a module the compile pool was compiling */
    /* The longest a wait for the GPU may last (gb_gpu_sync, gb_gpu_wait_event):
     * past it the wait returns GB_ERR_TIMEOUT and `hung` is set. 0: no limit. */
    double wait_limit_s;
    /* A wait ran past wait_limit_s: a kernel may still be running, so no call
     * that could wait for it (frees, unloads, synchronisation) is made on the
     * device again; gb_gpu_close only forgets it. */
    int hung;
    /* NVRTC's log of the last module that failed to compile (owned; NULL
     * when none): the harness moves it into the point's record. */
    char *compile_log;
    /* What the clocks that time samples keep on this GPU from point to
     * point (the profiler clock's range profiler: src/measure/clocks.h,
     * gb_clock_state), opaque here; NULL: nothing. gb_gpu_close calls
     * clock_state_release (when set) before it frees the GPU's buffers,
     * modules and context. */
    void *clock_state;
    void (*clock_state_release)(struct gb_gpu *g);
    /* What kernel spec benches keep on this GPU from point to point: the
     * inputs and references of their problems (src/suites/spec_cache.h),
     * opaque here; NULL: nothing. gb_gpu_close calls spec_cache_release
     * (when set) before it frees the GPU's modules and context. The
     * budget its problems may hold, and how many it made and evicted. */
    void *spec_cache;
    void (*spec_cache_release)(struct gb_gpu *g);
    size_t spec_budget_bytes;
    int spec_problems, spec_evictions;
    /* Modules compiled ahead of the GPU thread (the compile pool); NULL: none. */
    const struct gb_compile_ahead *ahead;
};

/* A source of modules compiled ahead of the thread that drives the GPU. The
 * GPU thread asks it for a module's cubin by cache key before compiling the
 * module itself. take() returns GB_OK with *cubin (malloc'ed; the caller
 * frees it) and *size when the module was compiled ahead (waiting while it
 * is being compiled, the wait added to *waited_s); GB_ERR_COMPILE with the
 * message and *log (malloc'ed, NVRTC's log) when it failed to compile;
 * GB_ERR_UNSUPPORTED when it does not have the module (never planned, not
 * started yet, or already in the disk cache): the caller compiles or loads
 * it itself. */
struct gb_compile_ahead {
    enum gb_status (*take)(void *ctx, const char *key, char **cubin, size_t *size, char **log,
                           double *waited_s);
    void *ctx;
};

/* The length of a module's cache key, with its NUL. */
struct gb_nvrtc_program; /* below */

#define GB_MODULE_KEY_LEN 33

/* The cache key of the module gb_gpu_module_program would build for `arch`
 * from program `x` and `opts` (the kernel-mutant hook applied first): 32 hex
 * digits into key[GB_MODULE_KEY_LEN]. Needs NVRTC (its version is part of
 * the key). Thread-safe once NVRTC is loaded (gb_nvrtc_version). */
GB_API enum gb_status gb_module_key(const char *arch, const struct gb_nvrtc_program *x, const char *const *opts,
                             int n_opts, char key[GB_MODULE_KEY_LEN]);

/* gb_nvrtc_program_ptx through the disk cache (gb_module_build's): the PTX
 * of program `x` for `arch`'s virtual architecture, read from the cache when
 * it holds it, otherwise compiled and written there (atomically; a cache that
 * cannot be written only costs a recompile). `entry` as gb_nvrtc_program_ptx's. */
GB_API enum gb_status gb_module_ptx(const char *arch, const struct gb_nvrtc_program *x, const char *const *opts,
                                    int n_opts, char **ptx, char *entry, size_t n_entry);

/* What gb_module_build did. */
struct gb_module_built {
    char *cubin;              /* compiled now (malloc'ed), or NULL when it was cached on disk */
    size_t size;
    int cached;               /* 1: the disk cache holds it already; nothing compiled */
    double cpu_s;             /* CPU seconds this thread spent compiling */
    char *log;                /* on GB_ERR_COMPILE: NVRTC's log (malloc'ed) */
};

/* Builds the module gb_module_key names without a GPU: when the disk cache
 * holds it, only says so; otherwise compiles it with NVRTC and writes the
 * cubin (and the lowered names of x's expressions) to the disk cache (atomically; a cache that cannot be written only
 * costs a recompile later). Thread-safe for different keys once NVRTC is
 * loaded: the compile pool runs it on its threads. The caller frees
 * out->cubin and out->log. */
GB_API enum gb_status gb_module_build(const char *arch, const struct gb_nvrtc_program *x, const char *const *opts,
                               int n_opts, struct gb_module_built *out);


/* Opens device `ordinal`: retains its primary context, creates the stream,
 * queries its limits. Release with gb_gpu_close. */
GB_API enum gb_status gb_gpu_open(int ordinal, struct gb_gpu *g);
GB_API void gb_gpu_close(struct gb_gpu *g);

/* Device memory. GB_ERR_DEVICE_OOM says how much was asked and how much is
 * free. gb_gpu_free ignores 0. */
GB_API enum gb_status gb_gpu_alloc(struct gb_gpu *g, size_t bytes, CUdeviceptr *out);
GB_API void gb_gpu_free(struct gb_gpu *g, CUdeviceptr p);

/* Compiles (or loads from the caches) the CUDA C text `source`
 * (NUL-terminated; `name` names it in messages and is part of the cache
 * key, e.g. "sgemm.cu") for the device's own architecture with the extra
 * NVRTC options `opts` (e.g. "-DWIDTH=16", "--maxrregcount=32"), and
 * returns the loaded module. Modules are cached in memory for the life of
 * `g` (gb_gpu_close unloads them; the module belongs to `g`) and as cubins
 * on disk (the key hashes name, source, architecture, NVRTC version and
 * options). A compile error returns GB_ERR_COMPILE with the kernel's name
 * and NVRTC's log. `source` need not outlive the call. */
GB_API enum gb_status gb_gpu_module_source(struct gb_gpu *g, const char *name, const char *source,
                                    const char *const *opts, int n_opts, CUmodule *out);

/* A program for NVRTC beyond one source text: headers the source may
 * #include, and C++ name expressions ("reduce<256>", "ns::kernel", or an
 * extern "C" name) whose lowered (mangled) names the caller looks up. */
#define GB_KERNEL_NAME_LEN 128
struct gb_nvrtc_program {
    const char *name;                    /* the main source's name (messages, cache key) */
    const char *source;                  /* NUL-terminated text */
    int n_headers;
    const char *const *header_names;     /* as the source #includes them */
    const char *const *header_sources;
    int n_exprs;
    const char (*exprs)[GB_KERNEL_NAME_LEN];  /* name expressions to lower */
    int user;                            /* 1: a kernel spec's source (the user's kernel), built by
                                          * the compiler gb_compiler_set chose; 0: gpubound's own
                                          * kernels, always by NVRTC */
};

/* gb_gpu_module_source for a program with headers and name expressions.
 * *lowered (when not NULL) is set to the n_exprs lowered names, in the
 * order of prog->exprs, owned by `g` like the module. The on-disk cache
 * keeps the lowered names beside the cubin; the key hashes the headers and
 * expressions too. A program with no headers and no expressions is the
 * same module (and cache entry) as gb_gpu_module_source's. */
GB_API enum gb_status gb_gpu_module_program(struct gb_gpu *g, const struct gb_nvrtc_program *prog,
                                     const char *const *opts, int n_opts, CUmodule *out,
                                     const char *const **lowered);

/* gb_gpu_module_source on the embedded kernel source `file` (e.g.
 * "bandwidth.cu"), named by its file. GB_ERR_USAGE when no embedded
 * source has that name. */
GB_API enum gb_status gb_gpu_module(struct gb_gpu *g, const char *file, const char *const *opts,
                             int n_opts, CUmodule *out);

/* Looks up an extern "C" entry point in a module. */
GB_API enum gb_status gb_gpu_function(CUmodule m, const char *name, CUfunction *out);

/* Launches on g->stream. `args` as for cuLaunchKernel. */
GB_API enum gb_status gb_gpu_launch(struct gb_gpu *g, CUfunction f, unsigned gx, unsigned gy,
                             unsigned gz, unsigned bx, unsigned by, unsigned bz,
                             unsigned smem_bytes, void **args);

/* Waits for all work on g->stream; a kernel fault surfaces here. Polls the
 * stream rather than blocking, so that a wait longer than g->wait_limit_s
 * returns GB_ERR_TIMEOUT (and sets g->hung) instead of waiting for ever. */
GB_API enum gb_status gb_gpu_sync(struct gb_gpu *g);

/* Waits for event `ev` like gb_gpu_sync waits for the stream. */
GB_API enum gb_status gb_gpu_wait_event(struct gb_gpu *g, CUevent ev);

/* Whether g's context is lost: GB_ERR_DEVICE_LOST (with the driver's
 * error) when a sticky error holds it, else GB_OK (also when g holds no
 * context). Never waits. */
GB_API enum gb_status gb_gpu_check(struct gb_gpu *g);

/* Fills `n_words` 32-bit words at `p` with a fresh pseudo-random non-zero
 * pattern: word i = gb_fill_word(seed, i). Asynchronous on g->stream. */
GB_API enum gb_status gb_gpu_fill_random(struct gb_gpu *g, CUdeviceptr p, size_t n_words, uint32_t seed);

/* The word gb_gpu_fill_random writes at index i (for host references). */
GB_API uint32_t gb_fill_word(uint32_t seed, uint64_t i);

/* Fills `n_words` 32-bit words with `value` (use GB_POISON before a
 * verification run). Asynchronous. */
#define GB_POISON 0xDEADBEEFu
GB_API enum gb_status gb_gpu_fill_u32(struct gb_gpu *g, CUdeviceptr p, size_t n_words, uint32_t value);

/* Counts the 32-bit words where a and b differ (synchronous). */
GB_API enum gb_status gb_gpu_count_diff(struct gb_gpu *g, CUdeviceptr a, CUdeviceptr b, size_t n_words,
                                 uint64_t *n_diff);

/* Counts the words of `p` that differ from gb_fill_word(seed, i) (synchronous). */
GB_API enum gb_status gb_gpu_count_diff_fill(struct gb_gpu *g, CUdeviceptr p, size_t n_words,
                                      uint32_t seed, uint64_t *n_diff);

/* Sum (mod 2^64) of the 32-bit words of `p` (synchronous); a reference for
 * benchmarks whose output is a checksum of their input. */
GB_API enum gb_status gb_gpu_sum_u32(struct gb_gpu *g, CUdeviceptr p, size_t n_words, uint64_t *sum);

/* How the cold mode empties the L2 before a sample (outside the timed
 * span), with a buffer twice the L2's size:
 *   GB_FLUSH_READ        reads it (written once, when allocated): the L2
 *                        ends holding clean lines of the buffer only, so the
 *                        next kernel misses on its own data and writes back
 *                        no other's dirty line;
 *   GB_FLUSH_WRITE       writes it: the L2 ends full of the buffer's dirty
 *                        lines, which the next kernel pays to write back;
 *   GB_FLUSH_WRITE_READ  writes it, then reads it;
 *   GB_FLUSH_READ_LAST   reads it marked evict-last (sm_80 and newer) with
 *                        the whole persisting set-aside granted for the
 *                        read, then resets every persisting line to normal
 *                        and gives the set-aside back: the reads displace
 *                        lines that plain reads leave in place;
 *   GB_FLUSH_EMPTY       the read-last reads, then discards every line of
 *                        the buffer from the L2 (no write-back: sm_80 and
 *                        newer), then runs 256 KiB of other code on every
 *                        SM: the L2 holds no valid line and the SMs'
 *                        instruction caches none of the timed kernel's, as
 *                        after Nsight Compute's --cache-control all. */
enum gb_flush_method { GB_FLUSH_READ = 0, GB_FLUSH_WRITE, GB_FLUSH_WRITE_READ, GB_FLUSH_READ_LAST, GB_FLUSH_EMPTY };

/* The method's name ("read", "write", "write-read", "read-last", "empty") and back
 * (-1: none). */
GB_API const char *gb_flush_method_name(enum gb_flush_method m);
GB_API int gb_flush_method_parse(const char *s);

/* Empties the L2 by `method`, asynchronously on g->stream. */
GB_API enum gb_status gb_gpu_flush_l2(struct gb_gpu *g, enum gb_flush_method method);

/* Current SM clock in MHz through NVML, or 0 when NVML is not available. */
GB_API int gb_gpu_sm_clock_mhz(const struct gb_gpu *g);

/* The driver's release ("580.159.04") through NVML, or "" when unknown. */
GB_API void gb_gpu_driver_release(char *buf, size_t n);

/* NVRTC's version as "13.0", or GB_ERR_NVRTC when it cannot be loaded. */
GB_API enum gb_status gb_nvrtc_version(char *buf, size_t n);

/* Compiles `source` (named `name` in messages) to a cubin for `arch`
 * ("sm_90") with `opts`, without touching a GPU or the caches. On success
 * *cubin (malloc'ed) and *size are set. Used by the nvrtc test tier too. */
GB_API enum gb_status gb_nvrtc_compile(const char *name, const char *source, const char *arch,
                                const char *const *opts, int n_opts, char **cubin, size_t *size);

/* gb_nvrtc_compile that also keeps NVRTC's whole log of a failed compile:
 * on GB_ERR_COMPILE *log (when log is not NULL) is the log (malloc'ed,
 * caller frees; NULL when NVRTC gave none) and the message names the
 * kernel, the architecture, the options and the log's first error line.
 * Thread-safe for separate programs once NVRTC is loaded (gb_nvrtc_version). */
GB_API enum gb_status gb_nvrtc_compile_log(const char *name, const char *source, const char *arch,
                                    const char *const *opts, int n_opts, char **cubin, size_t *size,
                                    char **log);
/* gb_nvrtc_compile for a program with headers and name expressions (with
 * gb_compiler_set(GB_COMPILER_NVCC): the cubin from nvcc, the lowered
 * names still from NVRTC, as both front ends mangle alike): on
 * success *lowered (when not NULL) is a malloc'ed array of prog->n_exprs
 * malloc'ed lowered names (free each and the array); on GB_ERR_COMPILE *log
 * (when not NULL) is NVRTC's log, as for gb_nvrtc_compile_log. */
GB_API enum gb_status gb_nvrtc_compile_program(const struct gb_nvrtc_program *prog, const char *arch,
                                        const char *const *opts, int n_opts, char **cubin,
                                        size_t *size, char ***lowered, char **log);

/* The compiler that builds the user's kernels (kernel spec sources,
 * gb_nvrtc_program.user): NVRTC, the toolkit's nvcc (whose cubin is the
 * one a program built with `nvcc -O3 -arch=sm_XY` runs; the two front ends
 * emit different code for some sources, docs/measurement.md, "The
 * compiler"), or auto (the default): nvcc where one is found, else NVRTC.
 * gpubound's own kernels are always built by NVRTC. Set it before the
 * first compile; not thread-safe. */
enum gb_compiler { GB_COMPILER_NVRTC, GB_COMPILER_NVCC, GB_COMPILER_AUTO, GB_COMPILER_COUNT };
GB_API void gb_compiler_set(enum gb_compiler c);
/* "nvrtc", "nvcc" or "auto"; gb_compiler_parse: the choice of that name, or -1. */
GB_API const char *gb_compiler_name(enum gb_compiler c);
GB_API int gb_compiler_parse(const char *name);
/* The compiler that builds a program (`user`: a kernel spec's source): NVRTC
 * or nvcc, the choice resolved (auto: nvcc when gb_nvcc_version finds one). */
GB_API enum gb_compiler gb_compiler_for(int user);
/* The compiler of the user's kernels and its version, "nvrtc 13.0" or
 * "nvcc 13.0.88" (what run.json records), or the error when the chosen one
 * cannot be found. */
GB_API enum gb_status gb_compiler_describe(char *buf, size_t n);
/* nvcc's version ("13.0.88"), or GB_ERR_UNSUPPORTED when no nvcc is found
 * ($GB_NVCC, $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin, PATH). */
GB_API enum gb_status gb_nvcc_version(char *buf, size_t n);
/* CPU seconds (user and system) of the nvcc processes the calling thread
 * ran since the last call; the count is reset. */
GB_API double gb_nvcc_take_cpu_s(void);
/* Compiles `prog` to a cubin with nvcc -cubin -O3 for `arch`: its -D
 * options become #defines after the runtime's headers, its headers files
 * beside it, its other options go to nvcc as they are. No lowered names
 * (gb_nvrtc_compile_program gets them from NVRTC). On GB_ERR_COMPILE *log
 * (when not NULL) is nvcc's output (malloc'ed). Thread-safe. */
GB_API enum gb_status gb_nvcc_compile_program(const struct gb_nvrtc_program *prog, const char *arch,
                                       const char *const *opts, int n_opts, char **cubin, size_t *size,
                                       char **log);

/* Compiles `source` like gb_nvrtc_compile, for the virtual architecture of
 * `arch` ("sm_90" -> compute_90), and returns the PTX text in *ptx
 * (malloc'ed, NUL-terminated). For tests that check the instructions a
 * kernel compiles to. */
GB_API enum gb_status gb_nvrtc_compile_ptx(const char *name, const char *source, const char *arch,
                                    const char *const *opts, int n_opts, char **ptx);

/* The PTX of a program with headers and name expressions (a kernel spec's
 * source, gb_nvrtc_compile_program's input) for the virtual architecture of
 * `arch`, compiled by NVRTC whatever gb_compiler_set chose: *ptx malloc'ed,
 * NUL-terminated; `entry` (when not NULL) the lowered name of its first
 * expression, the name of the kernel's .entry. */
GB_API enum gb_status gb_nvrtc_program_ptx(const struct gb_nvrtc_program *x, const char *arch,
                                           const char *const *opts, int n_opts, char **ptx, char *entry,
                                           size_t n_entry);

/* Embedded kernel sources (the .cu files of kernels/). NULL when `file` is unknown. */
GB_API const char *gb_kernel_source(const char *file);
/* The i-th embedded file's name, or NULL past the end. */
GB_API const char *gb_kernel_source_name(int i);

#endif
