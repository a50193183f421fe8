/* twin.cu - the plain-program twin of gpubound's points (issue 45): the
 * kernels of hist.cu, triad.cu, reduce.cu and gemm.cu, allocated, filled,
 * launched and timed the way a CUDA program usually does it (cudaMalloc,
 * inputs made on the host and copied, <<<>>> on the default stream, events
 * around each launch after a warm-up, the median), and every way gpubound
 * does it differently, one switch each, so that one factor at a time can be
 * varied against the same kernel.
 *
 * Built by scripts/twin.sh with the axis values of the specs beside this
 * file as -D options (the same defines gpubound compiles the spec with):
 *   nvcc -O3 -arch=sm_90 -Dhist_block=256 -Dhist_words=67108864 ... twin.cu -lcuda -lnvrtc
 * One line on stdout per measurement ("twin key=value ..."); errors are one
 * line on stderr. Exit 0 ok, 1 failed (verification included), 2 usage,
 * 3 no usable GPU. `twin --help` lists the switches; `twin --selftest`
 * checks the host side (generator, references, parser) without a GPU. */
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <vector>

/* The spec's axis values (scripts/twin.sh passes them from the specs). */
#ifndef hist_block
#define hist_block 256
#endif
#ifndef hist_words
#define hist_words 67108864
#endif
#ifndef triad_block
#define triad_block 256
#endif
#ifndef triad_n
#define triad_n 33554432
#endif
#ifndef reduce_block
#define reduce_block 256
#endif
#ifndef reduce_grid
#define reduce_grid 1056
#endif
#ifndef reduce_n
#define reduce_n 67108864
#endif
#ifndef gemm_tile
#define gemm_tile 32
#endif
#ifndef gemm_n
#define gemm_n 2048
#endif
#ifndef TWIN_SRC_DIR
#define TWIN_SRC_DIR "."
#endif
#define TWIN_STR2(x) #x
#define TWIN_STR(x) TWIN_STR2(x)

#include "hist.cu"
#include "triad.cu"
#include "reduce.cu"
#include "gemm.cu"

/* ---- options ---- */

enum { K_HIST, K_TRIAD, K_REDUCE, K_GEMM, K_N };
static const char *const kernel_names[] = {"hist", "triad", "reduce", "gemm"};
enum { A_MALLOC, A_ASYNC, A_MANAGED, A_DRIVER, A_VMM };
static const char *const alloc_names[] = {"malloc", "async", "managed", "driver", "vmm", NULL};
enum { F_HOST, F_MEMSET, F_DEVICE, F_FILE };
static const char *const fill_names[] = {"host", "memset", "device", "file", NULL};
enum { L_RUNTIME, L_DRIVER, L_NVRTC, L_GRAPH };
static const char *const launch_names[] = {"runtime", "driver", "nvrtc", "graph", NULL};
enum { S_DEFAULT, S_NONBLOCKING, S_HIGH };
static const char *const stream_names[] = {"default", "nonblocking", "high", NULL};
enum { C_PRIMARY, C_CREATE };
static const char *const ctx_names[] = {"primary", "create", NULL};
enum { Y_AUTO, Y_SPIN, Y_YIELD, Y_BLOCKING };
static const char *const sched_names[] = {"auto", "spin", "yield", "blocking", NULL};
enum { B_NONE, B_REFERENCE, B_PRIME, B_PERSIST_CYCLE };
static const char *const before_names[] = {"none", "reference", "prime", "persist-cycle", NULL};
enum { X_NONE, X_READ, X_WRITE };
static const char *const flush_names[] = {"none", "read", "write", NULL};
enum { T_EACH, T_BATCH };
static const char *const timing_names[] = {"each", "batch", NULL};
enum { O_PLAIN, O_GPUBOUND };
static const char *const order_names[] = {"plain", "gpubound", NULL};
enum { P_NONE, P_PAGES, P_GRANULES };
static const char *const scan_names[] = {"none", "pages", "granules", NULL};

struct cfg {
    int kernel, alloc, fill, launch, stream, ctx, sched, before, flush, timing, order, scan;
    size_t offset;        /* bytes added to every buffer's base */
    size_t pre;           /* an unused allocation of this many bytes just before the kernel's buffers */
    size_t vmm_gran;      /* cuMemCreate granularity (0: the recommended one) */
    int persist;          /* persisting-L2 set-aside at its maximum for the whole run */
    int carveout;         /* preferred shared-memory carveout in percent (-1: leave) */
    int cache_config;     /* 0 leave, 1 prefer shared, 2 prefer L1, 3 equal */
    int warmup;           /* launches at least */
    double warmup_ms;     /* and milliseconds at least */
    int samples;          /* 0: as many as fit in about 200 ms, 20 to 400 */
    int scan_n;           /* placements of the output buffer to scan */
    const char *data_file; /* F_FILE: the input's bytes (hist: data; others: each input in turn) */
    const char *write_data; /* write the host-made input of the first buffer here, then exit */
    const char *src_dir;  /* the kernel sources, for the NVRTC launch path */
    const char *label;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: twin --kernel hist|triad|reduce|gemm [switches]\n"
            "  --alloc malloc|async|managed|driver|vmm   cudaMalloc (default), cudaMallocAsync (the default pool),\n"
            "                      cudaMallocManaged, cuMemAlloc (as gpubound), cuMemCreate and map (VMM)\n"
            "  --vmm-gran BYTES    granularity of --alloc vmm (default: the recommended one)\n"
            "  --offset BYTES      every buffer's base moved BYTES into a larger allocation\n"
            "  --pre BYTES         an unused allocation of BYTES (same allocator) just before the buffers\n"
            "  --order plain|gpubound  allocation sequence: the buffers alone (default), or gpubound's\n"
            "                      (a 64-byte scratch word, a flush buffer of twice the L2 written once,\n"
            "                      a 16-byte result, each output three times: data, initial copy, reference)\n"
            "  --fill host|memset|device|file  inputs made on the host and copied (default), cudaMemset\n"
            "                      (byte 0x3F: other values, the histogram's work changes), a splitmix64\n"
            "                      kernel on the device (the host's values), or read from --data FILE\n"
            "  --data FILE         the input bytes for --fill file; --write-data FILE writes them and exits\n"
            "  --launch runtime|driver|nvrtc|graph  <<<>>> (default), cuLaunchKernel of the same function,\n"
            "                      cuLaunchKernel of the source compiled by NVRTC with gpubound's options,\n"
            "                      a CUDA graph of one launch\n"
            "  --src DIR           where hist.cu ... are for --launch nvrtc (default: the build's)\n"
            "  --stream default|nonblocking|high  the legacy default stream (default), a non-blocking\n"
            "                      stream (as gpubound), a non-blocking stream of the highest priority\n"
            "  --ctx primary|create  the runtime's primary context (default) or cuCtxCreate\n"
            "  --sched auto|spin|yield|blocking  the context's scheduling flag (default auto)\n"
            "  --persist           the persisting-L2 set-aside at its maximum for the whole run\n"
            "  --carveout PCT      the kernel's preferred shared-memory carveout\n"
            "  --cache-config shared|l1|equal  cudaFuncSetCacheConfig\n"
            "  --before none|reference|prime|persist-cycle  before the warm-up: nothing (default), the\n"
            "                      reference kernel once, gpubound's priming work (a flush buffer of twice\n"
            "                      the L2 written, then read), gpubound's read-last flush (set-aside at its\n"
            "                      maximum, evict-last reads, reset, set-aside back)\n"
            "  --flush none|read|write  an L2 flush (a buffer of twice the L2) before every sample\n"
            "  --timing each|batch  events around each launch (default) or around a batch of them\n"
            "  --warmup N --warmup-ms MS  warm-up launches and time, both at least (default 10, 100)\n"
            "  --samples N         timed launches (default: about 200 ms of them, 20 to 400)\n"
            "  --scan pages|granules --scan-n N  after the timing, the output buffer moved to N places\n"
            "                      (2 MiB pages of one allocation, or 1 KiB steps within one page)\n"
            "  --label TEXT        the label of the result line\n"
            "  --selftest          host checks only (no GPU): generator, references, parser\n");
}

static int pick(const char *const *names, const char *s)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || s[0] == '-')
        return -1;
    *out = (size_t)v;
    return 0;
}

/* 0 ok, 2 usage (message printed). */
static int parse_args(int argc, char **argv, struct cfg *c, int *selftest)
{
    memset(c, 0, sizeof *c);
    c->kernel = -1;
    c->carveout = -1;
    c->warmup = 10;
    c->warmup_ms = 100;
    c->scan_n = 32;
    c->src_dir = TWIN_SRC_DIR;
    c->label = "base";
    *selftest = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int *slot = NULL;
        const char *const *names = NULL;
        if (!strcmp(a, "--selftest")) { *selftest = 1; continue; }
        if (!strcmp(a, "--persist")) { c->persist = 1; continue; }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); exit(0); }
        if (!v) { fprintf(stderr, "twin: %s needs a value (twin --help)\n", a); return 2; }
        i++;
        if (!strcmp(a, "--kernel")) { slot = &c->kernel; names = kernel_names; }
        else if (!strcmp(a, "--alloc")) { slot = &c->alloc; names = alloc_names; }
        else if (!strcmp(a, "--fill")) { slot = &c->fill; names = fill_names; }
        else if (!strcmp(a, "--launch")) { slot = &c->launch; names = launch_names; }
        else if (!strcmp(a, "--stream")) { slot = &c->stream; names = stream_names; }
        else if (!strcmp(a, "--ctx")) { slot = &c->ctx; names = ctx_names; }
        else if (!strcmp(a, "--sched")) { slot = &c->sched; names = sched_names; }
        else if (!strcmp(a, "--before")) { slot = &c->before; names = before_names; }
        else if (!strcmp(a, "--flush")) { slot = &c->flush; names = flush_names; }
        else if (!strcmp(a, "--timing")) { slot = &c->timing; names = timing_names; }
        else if (!strcmp(a, "--order")) { slot = &c->order; names = order_names; }
        else if (!strcmp(a, "--scan")) { slot = &c->scan; names = scan_names; }
        if (slot) {
            static const char *const kn[] = {"hist", "triad", "reduce", "gemm", NULL};
            int k = pick(names == kernel_names ? kn : names, v);
            if (k < 0) { fprintf(stderr, "twin: %s %s: not a known value (twin --help)\n", a, v); return 2; }
            *slot = k;
            continue;
        }
        size_t n = 0;
        int bad = 0;
        if (!strcmp(a, "--offset")) bad = parse_size(v, &c->offset);
        else if (!strcmp(a, "--pre")) bad = parse_size(v, &c->pre);
        else if (!strcmp(a, "--vmm-gran")) bad = parse_size(v, &c->vmm_gran);
        else if (!strcmp(a, "--carveout")) { bad = parse_size(v, &n) || n > 100; c->carveout = (int)n; }
        else if (!strcmp(a, "--cache-config")) {
            static const char *const cc[] = {"leave", "shared", "l1", "equal", NULL};
            c->cache_config = pick(cc, v);
            bad = c->cache_config < 0;
        }
        else if (!strcmp(a, "--warmup")) { bad = parse_size(v, &n) || n > 100000; c->warmup = (int)n; }
        else if (!strcmp(a, "--warmup-ms")) { bad = parse_size(v, &n) || n > 60000; c->warmup_ms = (double)n; }
        else if (!strcmp(a, "--samples")) { bad = parse_size(v, &n) || n > 100000; c->samples = (int)n; }
        else if (!strcmp(a, "--scan-n")) { bad = parse_size(v, &n) || n < 1 || n > 1024; c->scan_n = (int)n; }
        else if (!strcmp(a, "--data")) c->data_file = v;
        else if (!strcmp(a, "--write-data")) c->write_data = v;
        else if (!strcmp(a, "--src")) c->src_dir = v;
        else if (!strcmp(a, "--label")) c->label = v;
        else { fprintf(stderr, "twin: unknown option %s (twin --help)\n", a); return 2; }
        if (bad) { fprintf(stderr, "twin: %s %s: not a valid number here (twin --help)\n", a, v); return 2; }
    }
    if (*selftest)
        return 0;
    if (c->kernel < 0) { fprintf(stderr, "twin: --kernel is required (hist, triad, reduce or gemm)\n"); return 2; }
    if (c->fill == F_FILE && !c->data_file) { fprintf(stderr, "twin: --fill file needs --data FILE\n"); return 2; }
    if (c->launch == L_GRAPH && c->timing == T_BATCH) { fprintf(stderr, "twin: --launch graph times one graph a sample; leave --timing each\n"); return 2; }
    return 0;
}

/* ---- the inputs: the splitmix64 finaliser of a key and an index, as
 * gpubound's generator (kernels/spec_data.h) ---- */

__host__ __device__ static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

__host__ __device__ static inline uint64_t gen_bits(uint64_t key, uint64_t i)
{
    return mix64(key + 0x9E3779B97F4A7C15ull * (i + 1ull));
}

/* A uint of [0, 2^32-1] never zero (gpubound's random uint over the whole range). */
__host__ __device__ static inline uint32_t gen_u32(uint64_t key, uint64_t i)
{
    uint32_t w = (uint32_t)(gen_bits(key, i) >> 32);
    return w ? w : 0xFFFFFFFFu;
}

/* A float of [-1, 1). */
__host__ __device__ static inline float gen_f32(uint64_t key, uint64_t i)
{
    double u = (double)(gen_bits(key, i) >> 11) * 0x1.0p-53;
    float x = (float)(-1.0 + u * 2.0);
    return x != 0.0f ? x : 1.0f;
}

__global__ void gen_fill_u32(uint32_t *p, size_t n, uint64_t key)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = gen_u32(key, i);
}

__global__ void gen_fill_f32(float *p, size_t n, uint64_t key)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = gen_f32(key, i);
}

static void host_fill(void *h, size_t n, int is_float, uint64_t key)
{
    if (is_float) {
        float *f = (float *)h;
#pragma omp parallel for schedule(static)
        for (long i = 0; i < (long)n; i++)
            f[i] = gen_f32(key, (uint64_t)i);
    } else {
        uint32_t *w = (uint32_t *)h;
#pragma omp parallel for schedule(static)
        for (long i = 0; i < (long)n; i++)
            w[i] = gen_u32(key, (uint64_t)i);
    }
}

/* ---- the CPU references ---- */

static void ref_hist(const uint32_t *data, size_t words, uint64_t bins[256])
{
    memset(bins, 0, 256 * sizeof bins[0]);
    for (size_t i = 0; i < words; i++) {
        uint32_t w = data[i];
        bins[w & 255]++;
        bins[(w >> 8) & 255]++;
        bins[(w >> 16) & 255]++;
        bins[w >> 24]++;
    }
}

static uint64_t ref_sum(const uint32_t *x, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s;
}

static double ref_gemm_at(const float *A, const float *B, int n, int r, int c)
{
    double s = 0;
    for (int k = 0; k < n; k++)
        s += (double)A[(size_t)r * n + k] * B[(size_t)k * n + c];
    return s;
}

static int close_to(double got, double want, double rtol, double atol)
{
    return fabs(got - want) <= atol + rtol * fabs(want);
}

/* ---- errors ---- */

static void die_rt(cudaError_t e, const char *what, int line)
{
    fprintf(stderr, "twin: %s failed at twin.cu:%d: %s\n", what, line, cudaGetErrorString(e));
    exit(e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? 3 : 1);
}

static void die_cu(CUresult r, const char *what, int line)
{
    const char *s = NULL;
    cuGetErrorString(r, &s);
    fprintf(stderr, "twin: %s failed at twin.cu:%d: %s\n", what, line, s ? s : "unknown error");
    exit(r == CUDA_ERROR_NO_DEVICE ? 3 : 1);
}

#define RT(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) die_rt(e_, #call, __LINE__); } while (0)
#define CU(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) die_cu(r_, #call, __LINE__); } while (0)

/* ---- NVML: the SM clock, opened at run time ---- */

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_by_pci_fn)(const char *, void **);
typedef int (*nvml_clock_fn)(void *, int, unsigned *);
static nvml_clock_fn nvml_clock;
static void *nvml_dev;

static void nvml_open(int dev)
{
    char bus[64];
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib || cudaDeviceGetPCIBusId(bus, sizeof bus, dev) != cudaSuccess)
        return;
    nvml_init_fn init = (nvml_init_fn)dlsym(lib, "nvmlInit_v2");
    nvml_by_pci_fn by_pci = (nvml_by_pci_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml_clock = (nvml_clock_fn)dlsym(lib, "nvmlDeviceGetClockInfo");
    if (!init || !by_pci || !nvml_clock || init() != 0 || by_pci(bus, &nvml_dev) != 0)
        nvml_clock = NULL;
}

static int sm_mhz(void)
{
    unsigned mhz = 0;
    return nvml_clock && nvml_clock(nvml_dev, 1 /* NVML_CLOCK_SM */, &mhz) == 0 ? (int)mhz : -1;
}

/* ---- allocation ---- */

struct mem {
    struct cfg *c;
    cudaStream_t stream;
    std::vector<void *> bases;          /* to free */
    std::vector<CUmemGenericAllocationHandle> handles;
    std::vector<size_t> sizes;
};

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

static void *vmm_alloc(struct mem *m, size_t bytes)
{
    CUdevice dev;
    CU(cuCtxGetDevice(&dev));
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t gran = 0;
    CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    if (m->c->vmm_gran)
        gran = round_up(m->c->vmm_gran, gran);
    size_t size = round_up(bytes, gran);
    CUmemGenericAllocationHandle h;
    CUdeviceptr p;
    CU(cuMemCreate(&h, size, &prop, 0));
    CU(cuMemAddressReserve(&p, size, gran, 0, 0));
    CU(cuMemMap(p, size, 0, h, 0));
    CUmemAccessDesc acc;
    memset(&acc, 0, sizeof acc);
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU(cuMemSetAccess(p, size, &acc, 1));
    m->handles.push_back(h);
    m->sizes.push_back(size);
    return (void *)p;
}

/* A buffer of `bytes` with the run's allocator, its base moved by --offset. */
static void *dalloc(struct mem *m, size_t bytes)
{
    size_t want = bytes + m->c->offset;
    void *p = NULL;
    switch (m->c->alloc) {
    case A_MALLOC: RT(cudaMalloc(&p, want)); break;
    case A_ASYNC: RT(cudaMallocAsync(&p, want, m->stream)); RT(cudaStreamSynchronize(m->stream)); break;
    case A_MANAGED: RT(cudaMallocManaged(&p, want, cudaMemAttachGlobal)); break;
    case A_DRIVER: { CUdeviceptr d; CU(cuMemAlloc(&d, want)); p = (void *)d; break; }
    default: p = vmm_alloc(m, want); break;
    }
    if (m->c->alloc != A_VMM)
        m->bases.push_back(p);
    return (char *)p + m->c->offset;
}

/* ---- the run ---- */

struct arg_buf {
    void *d;          /* device pointer */
    size_t bytes;
    int is_float;
    int output;
};

struct run {
    struct cfg *c;
    struct mem m;
    cudaStream_t stream;
    struct arg_buf buf[3];
    int n_buf;
    int scalar_i;     /* the count argument */
    float scalar_f;   /* triad's s */
    void *params[5];
    int n_params;
    dim3 grid, block;
    const void *fn_rt;    /* the runtime's kernel */
    CUfunction fn;        /* --launch driver / nvrtc */
    cudaGraphExec_t graph;
    void *flush_buf;
    size_t flush_bytes;
    size_t l2_bytes;
    int persist_max;
};

static void set_kernel(struct run *r)
{
    struct cfg *c = r->c;
    r->n_buf = 0;
    switch (c->kernel) {
    case K_HIST:
        r->buf[r->n_buf++] = arg_buf{NULL, 256 * 4, 0, 1};
        r->buf[r->n_buf++] = arg_buf{NULL, (size_t)hist_words * 4, 0, 0};
        r->scalar_i = hist_words;
        r->grid = dim3((hist_words + hist_block - 1) / hist_block);
        r->block = dim3(hist_block);
        r->fn_rt = (const void *)twin_hist;
        break;
    case K_TRIAD:
        r->buf[r->n_buf++] = arg_buf{NULL, (size_t)triad_n * 4, 1, 1};
        r->buf[r->n_buf++] = arg_buf{NULL, (size_t)triad_n * 4, 1, 0};
        r->buf[r->n_buf++] = arg_buf{NULL, (size_t)triad_n * 4, 1, 0};
        r->scalar_i = triad_n;
        r->scalar_f = 3.0f;
        r->grid = dim3((triad_n + triad_block - 1) / triad_block);
        r->block = dim3(triad_block);
        r->fn_rt = (const void *)twin_triad;
        break;
    case K_REDUCE:
        r->buf[r->n_buf++] = arg_buf{NULL, 8, 0, 1};
        r->buf[r->n_buf++] = arg_buf{NULL, (size_t)reduce_n * 4, 0, 0};
        r->scalar_i = reduce_n;
        r->grid = dim3(reduce_grid);
        r->block = dim3(reduce_block);
        r->fn_rt = (const void *)twin_reduce;
        break;
    default:
        r->buf[r->n_buf++] = arg_buf{NULL, (size_t)gemm_n * gemm_n * 4, 1, 1};
        r->buf[r->n_buf++] = arg_buf{NULL, (size_t)gemm_n * gemm_n * 4, 1, 0};
        r->buf[r->n_buf++] = arg_buf{NULL, (size_t)gemm_n * gemm_n * 4, 1, 0};
        r->scalar_i = gemm_n;
        r->grid = dim3(gemm_n / gemm_tile, gemm_n / gemm_tile);
        r->block = dim3(gemm_tile, gemm_tile);
        r->fn_rt = (const void *)twin_gemm;
        break;
    }
}

/* The kernel's parameters, in the order of its signature. */
static void set_params(struct run *r)
{
    r->n_params = 0;
    for (int i = 0; i < r->n_buf; i++)
        r->params[r->n_params++] = &r->buf[i].d;
    if (r->c->kernel == K_TRIAD)
        r->params[r->n_params++] = &r->scalar_f;
    r->params[r->n_params++] = &r->scalar_i;
}

/* One launch of the kernel under test, by the run's launch path. */
static void launch(struct run *r)
{
    switch (r->c->launch) {
    case L_RUNTIME: RT(cudaLaunchKernel(r->fn_rt, r->grid, r->block, r->params, 0, r->stream)); break;
    case L_GRAPH: RT(cudaGraphLaunch(r->graph, r->stream)); break;
    default:
        CU(cuLaunchKernel(r->fn, r->grid.x, r->grid.y, r->grid.z, r->block.x, r->block.y, r->block.z, 0,
                          (CUstream)r->stream, r->params, NULL));
    }
}

/* <<<>>> itself, as the program would write it (the runtime path). */
static void launch_chevrons(struct run *r, cudaStream_t s)
{
    switch (r->c->kernel) {
    case K_HIST:
        twin_hist<<<r->grid, r->block, 0, s>>>((unsigned *)r->buf[0].d, (const unsigned *)r->buf[1].d, r->scalar_i);
        break;
    case K_TRIAD:
        twin_triad<<<r->grid, r->block, 0, s>>>((float *)r->buf[0].d, (const float *)r->buf[1].d,
                                                (const float *)r->buf[2].d, r->scalar_f, r->scalar_i);
        break;
    case K_REDUCE:
        twin_reduce<<<r->grid, r->block, 0, s>>>((unsigned long long *)r->buf[0].d, (const unsigned *)r->buf[1].d,
                                                 r->scalar_i);
        break;
    default:
        twin_gemm<<<r->grid, r->block, 0, s>>>((float *)r->buf[0].d, (const float *)r->buf[1].d,
                                               (const float *)r->buf[2].d, r->scalar_i);
    }
    RT(cudaGetLastError());
}

static void launch_timed(struct run *r)
{
    if (r->c->launch == L_RUNTIME)
        launch_chevrons(r, r->stream);
    else
        launch(r);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "twin: cannot read %s (--src DIR names the directory of hist.cu ...)\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = (char *)calloc((size_t)n + 1, 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "twin: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    return s;
}

/* The kernel's source compiled by NVRTC as gpubound compiles a spec:
 * --gpu-architecture=sm_XY --std=c++17 -lineinfo and the axes as -D. */
static void nvrtc_function(struct run *r, int dev)
{
    static const char *const files[] = {"hist.cu", "triad.cu", "reduce.cu", "gemm.cu"};
    static const char *const entries[] = {"twin_hist", "twin_triad", "twin_reduce", "twin_gemm"};
    const char *defs[K_N][3] = {
        {"-Dhist_block=" TWIN_STR(hist_block), "-Dhist_words=" TWIN_STR(hist_words), NULL},
        {"-Dtriad_block=" TWIN_STR(triad_block), "-Dtriad_n=" TWIN_STR(triad_n), NULL},
        {"-Dreduce_block=" TWIN_STR(reduce_block), "-Dreduce_grid=" TWIN_STR(reduce_grid), "-Dreduce_n=" TWIN_STR(reduce_n)},
        {"-Dgemm_tile=" TWIN_STR(gemm_tile), "-Dgemm_n=" TWIN_STR(gemm_n), NULL}};
    int k = r->c->kernel, major = 0, minor = 0;
    char path[4096], arch[64];
    RT(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    RT(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", major, minor);
    snprintf(path, sizeof path, "%s/%s", r->c->src_dir, files[k]);
    char *src = read_text(path);
    const char *opts[8] = {arch, "--std=c++17", "-lineinfo"};
    int n = 3;
    for (int i = 0; i < 3 && defs[k][i]; i++)
        opts[n++] = defs[k][i];
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, src, files[k], 0, NULL, NULL) != NVRTC_SUCCESS ||
        nvrtcAddNameExpression(prog, entries[k]) != NVRTC_SUCCESS) {
        fprintf(stderr, "twin: nvrtcCreateProgram failed for %s\n", files[k]);
        exit(1);
    }
    if (nvrtcCompileProgram(prog, n, opts) != NVRTC_SUCCESS) {
        size_t ln = 0;
        nvrtcGetProgramLogSize(prog, &ln);
        char *log = (char *)calloc(ln + 1, 1);
        nvrtcGetProgramLog(prog, log);
        fprintf(stderr, "twin: %s did not compile with NVRTC: %s\n", files[k], log);
        exit(1);
    }
    size_t size = 0;
    nvrtcGetCUBINSize(prog, &size);
    char *cubin = (char *)malloc(size);
    nvrtcGetCUBIN(prog, cubin);
    CUmodule mod;
    CU(cuModuleLoadData(&mod, cubin));
    CU(cuModuleGetFunction(&r->fn, mod, entries[k]));
    nvrtcDestroyProgram(&prog);
    free(cubin);
    free(src);
}

/* Kernels of the flushes and of gpubound's read-last flush (kernels/util.cu). */
__global__ void flush_write(uint4 *p, size_t n, unsigned salt)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = make_uint4(salt, (unsigned)i, salt, (unsigned)(i >> 32));
}

__global__ void flush_read(const uint4 *p, size_t n, unsigned *out, int last)
{
    unsigned acc = 0;
    unsigned long long policy = 0;
    if (last)
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint4 v;
        if (last)
            asm volatile("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p + i), "l"(policy));
        else
            v = __ldcg(p + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u && out)
        out[0] = acc;
}

static unsigned util_grid(void)
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    return (unsigned)(sms > 0 ? sms * 8 : 1024);
}

/* The flush buffer (twice the L2), written once when made, as gpubound's. */
static void flush_make(struct run *r)
{
    if (r->flush_buf)
        return;
    r->flush_bytes = 2 * r->l2_bytes;
    r->flush_buf = dalloc(&r->m, r->flush_bytes);
    static unsigned salt;
    flush_write<<<util_grid(), 256, 0, r->stream>>>((uint4 *)r->flush_buf, r->flush_bytes / 16, ++salt);
    RT(cudaGetLastError());
}

static void flush(struct run *r, int how, int last)
{
    static unsigned salt = 100;
    flush_make(r);
    if (how == X_WRITE)
        flush_write<<<util_grid(), 256, 0, r->stream>>>((uint4 *)r->flush_buf, r->flush_bytes / 16, ++salt);
    else
        flush_read<<<util_grid(), 256, 0, r->stream>>>((const uint4 *)r->flush_buf, r->flush_bytes / 16, NULL, last);
    RT(cudaGetLastError());
}

/* gpubound's read-last flush: the set-aside at its maximum for evict-last
 * reads, every persisting line reset, the set-aside given back. */
static void persist_cycle(struct run *r)
{
    size_t old = 0;
    RT(cudaDeviceGetLimit(&old, cudaLimitPersistingL2CacheSize));
    RT(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)r->persist_max));
    flush(r, X_READ, 1);
    RT(cudaStreamSynchronize(r->stream));
    RT(cudaCtxResetPersistingL2Cache());
    RT(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, old));
}

static void run_reference_kernel(struct run *r)
{
    /* Into a buffer of its own: the output under test is verified later. */
    void *out = dalloc(&r->m, r->buf[0].bytes);
    switch (r->c->kernel) {
    case K_HIST:
        twin_hist_reference<<<(hist_words + 255) / 256, 256, 0, r->stream>>>((unsigned *)out, (const unsigned *)r->buf[1].d,
                                                                             r->scalar_i);
        break;
    case K_TRIAD:
        twin_triad_reference<<<(triad_n + 255) / 256, 256, 0, r->stream>>>((float *)out, (const float *)r->buf[1].d,
                                                                           (const float *)r->buf[2].d, r->scalar_f, r->scalar_i);
        break;
    case K_REDUCE:
        twin_reduce_reference<<<1, 1024, 0, r->stream>>>((unsigned long long *)out, (const unsigned *)r->buf[1].d,
                                                          r->scalar_i);
        break;
    default:
        twin_gemm_reference<<<dim3(gemm_n / 16, gemm_n / 16), dim3(16, 16), 0, r->stream>>>(
            (float *)out, (const float *)r->buf[1].d, (const float *)r->buf[2].d, r->scalar_i);
    }
    RT(cudaGetLastError());
    RT(cudaStreamSynchronize(r->stream));
}

/* The inputs, made as --fill says; returns the host copy (the CPU reference reads it). */
static void fill_inputs(struct run *r, std::vector<void *> &host)
{
    struct cfg *c = r->c;
    for (int i = 0; i < r->n_buf; i++) {
        struct arg_buf *b = &r->buf[i];
        void *h = malloc(b->bytes);
        if (!h) { fprintf(stderr, "twin: out of host memory\n"); exit(1); }
        host.push_back(h);
        if (b->output)
            continue;
        uint64_t key = 0x7717u + (uint64_t)i * 0x1000193u + (uint64_t)c->kernel;
        size_t n = b->bytes / 4;
        if (c->fill == F_HOST) {
            host_fill(h, n, b->is_float, key);
            RT(cudaMemcpy(b->d, h, b->bytes, cudaMemcpyHostToDevice));
        } else if (c->fill == F_MEMSET) {
            RT(cudaMemsetAsync(b->d, 0x3F, b->bytes, r->stream));
        } else if (c->fill == F_DEVICE) {
            if (b->is_float)
                gen_fill_f32<<<util_grid(), 256, 0, r->stream>>>((float *)b->d, n, key);
            else
                gen_fill_u32<<<util_grid(), 256, 0, r->stream>>>((uint32_t *)b->d, n, key);
            RT(cudaGetLastError());
        } else {
            FILE *f = fopen(c->data_file, "rb");
            if (!f || fread(h, 1, b->bytes, f) != b->bytes) {
                fprintf(stderr, "twin: %s does not hold the %zu bytes of input %d; make it with --write-data\n",
                        c->data_file, b->bytes, i);
                exit(2);
            }
            fclose(f);
            RT(cudaMemcpy(b->d, h, b->bytes, cudaMemcpyHostToDevice));
        }
        RT(cudaStreamSynchronize(r->stream));
        /* What the device holds is what the reference reads. */
        RT(cudaMemcpy(h, b->d, b->bytes, cudaMemcpyDeviceToHost));
    }
}

/* One launch on a poisoned (histogram, sum: zeroed) output, compared with
 * the CPU reference; returns the launch's time (events) in ms. */
static double verify(struct run *r, std::vector<void *> &host)
{
    struct arg_buf *o = &r->buf[0];
    cudaEvent_t e0, e1;
    float ms = 0;
    RT(cudaMemsetAsync(o->d, 0xA5, o->bytes, r->stream));
    if (r->c->kernel == K_HIST || r->c->kernel == K_REDUCE)
        RT(cudaMemsetAsync(o->d, 0, o->bytes, r->stream));
    RT(cudaEventCreate(&e0));
    RT(cudaEventCreate(&e1));
    RT(cudaEventRecord(e0, r->stream));
    launch_timed(r);
    RT(cudaEventRecord(e1, r->stream));
    RT(cudaEventSynchronize(e1));
    RT(cudaEventElapsedTime(&ms, e0, e1));
    RT(cudaMemcpy(host[0], o->d, o->bytes, cudaMemcpyDeviceToHost));
    long bad = 0, first = -1;
    switch (r->c->kernel) {
    case K_HIST: {
        uint64_t want[256];
        ref_hist((const uint32_t *)host[1], hist_words, want);
        for (int b = 0; b < 256; b++)
            if (((uint32_t *)host[0])[b] != (uint32_t)want[b] && bad++ == 0)
                first = b;
        break;
    }
    case K_TRIAD: {
        const float *a = (const float *)host[0], *b = (const float *)host[1], *cc = (const float *)host[2];
        for (long i = 0; i < triad_n; i++)
            if (!close_to(a[i], (double)b[i] + 3.0 * cc[i], 1e-6, 1e-6) && bad++ == 0)
                first = i;
        break;
    }
    case K_REDUCE:
        if (*(uint64_t *)host[0] != ref_sum((const uint32_t *)host[1], reduce_n))
            bad = 1, first = 0;
        break;
    default: {
        /* 4096 outputs spread over C, each against a double dot product. */
        const float *C = (const float *)host[0];
        for (int s = 0; s < 4096; s++) {
            int row = (int)(gen_bits(99, (uint64_t)s) % gemm_n), col = (int)(gen_bits(98, (uint64_t)s) % gemm_n);
            if (!close_to(C[(size_t)row * gemm_n + col], ref_gemm_at((const float *)host[1], (const float *)host[2], gemm_n, row, col),
                          1e-3, 1e-3) && bad++ == 0)
                first = (long)row * gemm_n + col;
        }
    }
    }
    if (bad) {
        fprintf(stderr, "twin: %s: %ld outputs differ from the CPU reference (the first at %ld)\n",
                kernel_names[r->c->kernel], bad, first);
        exit(1);
    }
    RT(cudaEventDestroy(e0));
    RT(cudaEventDestroy(e1));
    return ms;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Times `n` samples: events around each launch, or around batches. */
static void time_samples(struct run *r, int n, std::vector<double> &ms)
{
    const int per = r->c->timing == T_BATCH ? n : 1, count = r->c->timing == T_BATCH ? 7 : n;
    std::vector<cudaEvent_t> ev(2 * (size_t)count);
    for (auto &e : ev)
        RT(cudaEventCreate(&e));
    for (int s = 0; s < count; s++) {
        if (r->c->flush != X_NONE)
            flush(r, r->c->flush, 0);
        RT(cudaEventRecord(ev[2 * s], r->stream));
        for (int k = 0; k < per; k++)
            launch_timed(r);
        RT(cudaEventRecord(ev[2 * s + 1], r->stream));
    }
    RT(cudaEventSynchronize(ev[2 * count - 1]));
    for (int s = 0; s < count; s++) {
        float t = 0;
        RT(cudaEventElapsedTime(&t, ev[2 * s], ev[2 * s + 1]));
        ms.push_back((double)t / per);
    }
    for (auto &e : ev)
        RT(cudaEventDestroy(e));
}

/* Warm-up: at least c->warmup launches and c->warmup_ms; returns the last launch's time. */
static double warm_up(struct run *r)
{
    double start = now_s(), last = 0;
    int done = 0;
    do {
        std::vector<double> t;
        struct cfg save = *r->c;
        r->c->timing = T_EACH;
        r->c->flush = X_NONE;
        time_samples(r, 5, t);
        *r->c = save;
        last = t.back();
        done += 5;
    } while (done < r->c->warmup || (now_s() - start) * 1e3 < r->c->warmup_ms);
    return last;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int auto_samples(const struct cfg *c, double est_ms)
{
    if (c->samples > 0)
        return c->samples;
    int n = (int)(200.0 / (est_ms > 1e-3 ? est_ms : 1e-3));
    return n < 20 ? 20 : n > 400 ? 400 : n;
}

static void print_result(struct run *r, const char *what, const std::vector<double> &ms, double first_ms,
                         int mhz0, int mhz1)
{
    double mn = *std::min_element(ms.begin(), ms.end()), sum = 0;
    for (double x : ms)
        sum += x;
    printf("twin kernel=%s label=%s %s median_ms=%.6f min_ms=%.6f mean_ms=%.6f first_ms=%.6f samples=%zu "
           "sm_mhz_before=%d sm_mhz_after=%d out=%p in=%p verified=ok\n",
           kernel_names[r->c->kernel], r->c->label, what, median(ms), mn, sum / ms.size(), first_ms, ms.size(), mhz0,
           mhz1, r->buf[0].d, r->buf[1].d);
    fflush(stdout);
}

/* --scan: the output moved to N places of one allocation, each timed. */
static void scan_output(struct run *r, double est_ms)
{
    size_t stride = r->c->scan == P_PAGES ? (size_t)2 << 20 : 1024;
    size_t bytes = round_up(r->buf[0].bytes, 256);
    char *arena = (char *)dalloc(&r->m, stride * (size_t)r->c->scan_n + bytes);
    int n = auto_samples(r->c, est_ms) / 2;
    for (int k = 0; k < r->c->scan_n; k++) {
        std::vector<double> ms;
        r->buf[0].d = arena + (size_t)k * stride;
        RT(cudaMemsetAsync(r->buf[0].d, 0, r->buf[0].bytes, r->stream));
        if (r->c->launch == L_GRAPH) {
            fprintf(stderr, "twin: --scan with --launch graph is not supported\n");
            exit(2);
        }
        time_samples(r, 3, ms);
        ms.clear();
        time_samples(r, n < 10 ? 10 : n, ms);
        char what[96];
        snprintf(what, sizeof what, "scan=%s k=%d", scan_names[r->c->scan], k);
        print_result(r, what, ms, 0, -1, -1);
    }
}

static void open_context(struct cfg *c, int *dev)
{
    static const unsigned rt_flags[] = {cudaDeviceScheduleAuto, cudaDeviceScheduleSpin, cudaDeviceScheduleYield,
                                        cudaDeviceScheduleBlockingSync};
    static const unsigned cu_flags[] = {CU_CTX_SCHED_AUTO, CU_CTX_SCHED_SPIN, CU_CTX_SCHED_YIELD,
                                        CU_CTX_SCHED_BLOCKING_SYNC};
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "twin: no usable GPU (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        exit(3);
    }
    *dev = 0;
    if (c->ctx == C_CREATE) {
        CUcontext ctx;
        CUdevice d;
        CU(cuInit(0));
        CU(cuDeviceGet(&d, 0));
#if CUDA_VERSION >= 13000
        CU(cuCtxCreate(&ctx, NULL, cu_flags[c->sched], d));
#else
        CU(cuCtxCreate(&ctx, cu_flags[c->sched], d));
#endif
        CU(cuCtxSetCurrent(ctx));
    } else {
        RT(cudaSetDevice(0));
        if (c->sched != Y_AUTO)
            RT(cudaSetDeviceFlags(rt_flags[c->sched]));
    }
    RT(cudaFree(0));
}

static int run_twin(struct cfg *c)
{
    struct run r{};
    int dev;
    r.c = c;
    open_context(c, &dev);
    nvml_open(dev);
    int l2 = 0;
    RT(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    RT(cudaDeviceGetAttribute(&r.persist_max, cudaDevAttrMaxPersistingL2CacheSize, dev));
    r.l2_bytes = l2 > 0 ? (size_t)l2 : (size_t)64 << 20;
    if (c->stream == S_NONBLOCKING)
        RT(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
    else if (c->stream == S_HIGH) {
        int lo = 0, hi = 0;
        RT(cudaDeviceGetStreamPriorityRange(&lo, &hi));
        RT(cudaStreamCreateWithPriority(&r.stream, cudaStreamNonBlocking, hi));
    }
    r.m.c = c;
    r.m.stream = r.stream;
    if (c->persist)
        RT(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)r.persist_max));
    set_kernel(&r);
    if (c->order == O_GPUBOUND) {
        (void)dalloc(&r.m, 64);     /* the scratch word */
        flush_make(&r);             /* the priming session's flush buffer */
        (void)dalloc(&r.m, 16);     /* the comparison's result */
    }
    if (c->pre)
        (void)dalloc(&r.m, c->pre);
    for (int i = 0; i < r.n_buf; i++) {
        r.buf[i].d = dalloc(&r.m, r.buf[i].bytes);
        if (c->order == O_GPUBOUND && r.buf[i].output) {
            (void)dalloc(&r.m, r.buf[i].bytes);   /* its initial copy */
            (void)dalloc(&r.m, r.buf[i].bytes);   /* its reference */
        }
    }
    if (c->alloc == A_MANAGED) {
        for (int i = 0; i < r.n_buf; i++) {
#if CUDART_VERSION >= 13000
            cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};
            RT(cudaMemPrefetchAsync(r.buf[i].d, r.buf[i].bytes, loc, 0, r.stream));
#else
            RT(cudaMemPrefetchAsync(r.buf[i].d, r.buf[i].bytes, dev, r.stream));
#endif
        }
    }
    set_params(&r);
    if (c->launch == L_DRIVER)
        RT(cudaGetFuncBySymbol(&r.fn, r.fn_rt));
    else if (c->launch == L_NVRTC)
        nvrtc_function(&r, dev);
    if (c->carveout >= 0 || c->cache_config) {
        static const cudaFuncCache cc[] = {cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1,
                                           cudaFuncCachePreferEqual};
        if (c->launch == L_NVRTC) {
            if (c->carveout >= 0)
                CU(cuFuncSetAttribute(r.fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, c->carveout));
            if (c->cache_config)
                CU(cuFuncSetCacheConfig(r.fn, (CUfunc_cache)cc[c->cache_config]));
        } else {
            if (c->carveout >= 0)
                RT(cudaFuncSetAttribute(r.fn_rt, cudaFuncAttributePreferredSharedMemoryCarveout, c->carveout));
            if (c->cache_config)
                RT(cudaFuncSetCacheConfig(r.fn_rt, cc[c->cache_config]));
        }
    }
    std::vector<void *> host;
    fill_inputs(&r, host);
    if (c->before == B_REFERENCE)
        run_reference_kernel(&r);
    else if (c->before == B_PRIME) {
        flush(&r, X_READ, 0);
        RT(cudaStreamSynchronize(r.stream));
    } else if (c->before == B_PERSIST_CYCLE)
        persist_cycle(&r);
    if (c->launch == L_GRAPH) {
        cudaStream_t cs;
        cudaGraph_t g;
        RT(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
        RT(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
        launch_chevrons(&r, cs);
        RT(cudaStreamEndCapture(cs, &g));
        RT(cudaGraphInstantiate(&r.graph, g, 0));
    }
    double first_ms = verify(&r, host);
    double est = warm_up(&r);
    std::vector<double> ms;
    int mhz0 = sm_mhz();
    time_samples(&r, auto_samples(c, est), ms);
    int mhz1 = sm_mhz();
    char what[256];
    snprintf(what, sizeof what, "alloc=%s offset=%zu pre=%zu order=%s fill=%s launch=%s stream=%s ctx=%s sched=%s persist=%d "
             "carveout=%d before=%s flush=%s timing=%s",
             alloc_names[c->alloc], c->offset, c->pre, order_names[c->order], fill_names[c->fill], launch_names[c->launch],
             stream_names[c->stream], ctx_names[c->ctx], sched_names[c->sched], c->persist, c->carveout,
             before_names[c->before], flush_names[c->flush], timing_names[c->timing]);
    print_result(&r, what, ms, first_ms, mhz0, mhz1);
    if (c->scan != P_NONE)
        scan_output(&r, est);
    RT(cudaDeviceSynchronize());
    for (void *h : host)
        free(h);
    return 0;
}

/* --write-data FILE: the host-made bytes of the kernel's first input. */
static int write_data(struct cfg *c)
{
    struct run r{};
    r.c = c;
    set_kernel(&r);
    struct arg_buf *b = &r.buf[1];
    void *h = malloc(b->bytes);
    host_fill(h, b->bytes / 4, b->is_float, 0x7717u + 0x1000193u + (uint64_t)c->kernel);
    FILE *f = fopen(c->write_data, "wb");
    int ok = f && fwrite(h, 1, b->bytes, f) == b->bytes;
    if (f && fclose(f) != 0)
        ok = 0;
    free(h);
    if (!ok) {
        fprintf(stderr, "twin: cannot write %s\n", c->write_data);
        return 1;
    }
    return 0;
}

/* ---- host checks without a GPU ---- */

static int check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    return ok ? 0 : 1;
}

static int selftest(void)
{
    int fail = 0;
    /* The generator is the splitmix64 finaliser of key + golden * (i + 1). */
    fail += check(mix64(0) == 0, "splitmix64 finaliser of 0 is 0");
    fail += check(gen_bits(0, 0) == 0xE220A8397B1DCDAFull, "splitmix64 of the golden ratio (the first output of seed 0)");
    uint32_t words[4] = {0x03020100u, 0xFFFFFFFFu, 0x01010101u, 0x80FF0001u};
    uint64_t bins[256];
    ref_hist(words, 4, bins);
    fail += check(bins[0] == 2 && bins[1] == 6 && bins[2] == 1 && bins[3] == 1 && bins[255] == 5 && bins[0x80] == 1,
                  "the histogram reference counts every byte of every word");
    uint64_t total = 0;
    for (int b = 0; b < 256; b++)
        total += bins[b];
    fail += check(total == 16, "the histogram reference counts 4 bytes a word");
    std::vector<uint32_t> big(1 << 16);
    host_fill(big.data(), big.size(), 0, 5);
    ref_hist(big.data(), big.size(), bins);
    uint64_t lo = ~0ull, hi = 0;
    for (int b = 0; b < 256; b++) {
        lo = std::min(lo, bins[b]);
        hi = std::max(hi, bins[b]);
    }
    fail += check(lo > 800 && hi < 1250, "host-made bytes are uniform over the 256 bins (1024 expected each)");
    int zero = 0;
    for (uint32_t w : big)
        zero += w == 0;
    fail += check(zero == 0 && gen_u32(5, 7) == big[7], "host-made words are the generator's, never zero");
    uint32_t x[3] = {0xFFFFFFFFu, 0xFFFFFFFFu, 2};
    fail += check(ref_sum(x, 3) == 0x200000000ull, "the sum reference does not wrap at 32 bits");
    float A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8};
    fail += check(ref_gemm_at(A, B, 2, 0, 0) == 19 && ref_gemm_at(A, B, 2, 1, 1) == 50, "the GEMM reference (2 x 2)");
    std::vector<float> f(1 << 12);
    host_fill(f.data(), f.size(), 1, 3);
    float fmin = 2, fmax = -2;
    for (float v : f) {
        fmin = std::min(fmin, v);
        fmax = std::max(fmax, v);
    }
    fail += check(fmin >= -1 && fmax < 1 && fmin < -0.9 && fmax > 0.9, "host-made floats cover [-1, 1)");
    fail += check(close_to(1.0, 1.0 + 1e-7, 1e-6, 0) && !close_to(1.0, 1.1, 1e-6, 1e-6), "the tolerance rule");
    struct cfg c;
    int st;
    char a0[] = "twin", a1[] = "--kernel", a2[] = "gemm", a3[] = "--alloc", a4[] = "vmm", a5[] = "--offset",
         a6[] = "4096";
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6};
    fail += check(parse_args(7, argv, &c, &st) == 0 && c.kernel == K_GEMM && c.alloc == A_VMM && c.offset == 4096,
                  "the parser takes --kernel gemm --alloc vmm --offset 4096");
    printf("%d failed\n", fail);
    return fail ? 1 : 0;
}

int main(int argc, char **argv)
{
    struct cfg c;
    int st = 0;
    int rc = parse_args(argc, argv, &c, &st);
    if (rc)
        return rc;
    if (st)
        return selftest();
    if (c.write_data)
        return write_data(&c);
    return run_twin(&c);
}
