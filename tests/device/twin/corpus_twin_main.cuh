// corpus_twin_main.cuh - the host program of every corpus twin (corpus_twin.py
// writes the rest: the argument table, the configuration's defines, the
// corpus kernel's source, and the two <<<>>> launches). Kept apart from the
// generated part and included before the defines, so that no axis macro
// (`n`, `dim`, `tile` ...) reaches this code.
//
// What a plain CUDA program does: cudaMalloc per buffer, inputs made on the
// host and copied with cudaMemcpy, the outputs poisoned (or their init), the
// reference kernel into buffers of its own, one launch compared element by
// element, then hot launches on the legacy default stream: a warm-up of at
// least 10 launches and 100 ms, 7 batches of back-to-back launches (about
// 20 ms each) between CUDA events, and single launches between events.
// One line on stdout ("twin label=... key=value ..."); errors one line on
// stderr. Exit 0 ok, 1 failed (verification included), 3 no usable GPU.
#ifndef CORPUS_TWIN_MAIN_CUH
#define CORPUS_TWIN_MAIN_CUH
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "tests/device/twin/corpus_data.h"

// One kernel argument: a buffer (count elements of type) or a scalar
// (count -1: the generated launch spells its value).
struct twin_arg {
    const char *name, *type;
    long long count;
    int output;
    int init;                  // 0 poisoned, 1 random, 2 constant, 3 iota, 4 file
    double a, b;               // random [a, b], constant a, iota from a by b
    unsigned long long key;    // the generator's stream (gpubound's)
    double rtol, atol;         // < 0: the type's default
    const char *file;
};

// Device pointers handed to the kernel as its own parameter types.
struct twin_ptr {
    void *p;
    template <class T> operator T *() const { return (T *)p; }
};

typedef void (*twin_launch_fn)(void *const *d);

static const char *twin_label_ = "twin";

static void twin_ck(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "twin %s: %s failed: %s\n", twin_label_, what, cudaGetErrorString(e));
        exit(1);
    }
}
#define TWIN_CK(call) twin_ck((call), #call)

static double twin_now_s(void)
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static double twin_median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t k = v.size();
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

// The host's copy of buffer i: filled, read from its file, or poisoned.
static void *twin_host_buffer(const twin_arg *a, int type, size_t bytes)
{
    void *h = malloc(bytes ? bytes : 1);
    if (!h) {
        fprintf(stderr, "twin %s: out of host memory for %s (%zu bytes)\n", twin_label_, a->name, bytes);
        exit(1);
    }
    if (a->init == 4) {
        if (twin_read_file(a->file, h, bytes)) {
            fprintf(stderr, "twin %s: cannot read %zu bytes of %s for %s\n", twin_label_, bytes, a->file, a->name);
            exit(1);
        }
    } else if (a->init) {
        twin_fill(h, (uint64_t)a->count, type, a->init, a->a, a->b, a->key);
    } else {
        twin_poison(h, (uint64_t)a->count, type);
    }
    return h;
}

// Compares every output with the reference's; returns the mismatches.
static unsigned long long twin_verify(const twin_arg *args, int nargs, void **d, void **r, void **h)
{
    unsigned long long bad = 0;
    for (int i = 0; i < nargs; i++) {
        const twin_arg *a = &args[i];
        if (a->count < 0 || !a->output)
            continue;
        int type = twin_type_id(a->type);
        size_t bytes = (size_t)a->count * twin_type_size(type);
        void *got = malloc(bytes ? bytes : 1), *exp = h[i];
        double rt, at, g = 0, e = 0;
        uint64_t first = 0;
        twin_type_tol(type, &rt, &at);
        if (!got) {
            fprintf(stderr, "twin %s: out of host memory\n", twin_label_);
            exit(1);
        }
        TWIN_CK(cudaMemcpy(got, d[i], bytes, cudaMemcpyDeviceToHost));
        TWIN_CK(cudaMemcpy(exp, r[i], bytes, cudaMemcpyDeviceToHost));
        uint64_t nb = twin_compare(got, exp, (uint64_t)a->count, type, a->rtol >= 0 ? a->rtol : rt,
                                   a->atol >= 0 ? a->atol : at, &first, &g, &e);
        if (nb)
            fprintf(stderr, "twin %s: output %s: index %llu: expected %.9g, got %.9g (%llu of %lld values differ)\n",
                    twin_label_, a->name, (unsigned long long)first, e, g, (unsigned long long)nb, a->count);
        bad += nb;
        free(got);
    }
    return bad;
}

// Events around `per` launches, `count` times; the span of each over `per`, in ms.
static std::vector<double> twin_time(twin_launch_fn launch, void *const *d, int per, int count)
{
    std::vector<cudaEvent_t> ev(2 * (size_t)count);
    std::vector<double> ms;
    for (auto &x : ev)
        TWIN_CK(cudaEventCreate(&x));
    for (int s = 0; s < count; s++) {
        TWIN_CK(cudaEventRecord(ev[2 * s]));
        for (int k = 0; k < per; k++)
            launch(d);
        TWIN_CK(cudaEventRecord(ev[2 * s + 1]));
    }
    TWIN_CK(cudaEventSynchronize(ev[2 * count - 1]));
    TWIN_CK(cudaGetLastError());
    for (int s = 0; s < count; s++) {
        float t = 0;
        TWIN_CK(cudaEventElapsedTime(&t, ev[2 * s], ev[2 * s + 1]));
        ms.push_back((double)t / per);
    }
    for (auto &x : ev)
        TWIN_CK(cudaEventDestroy(x));
    return ms;
}

static int twin_main(const char *label, const twin_arg *args, int nargs, void (*setup)(void), twin_launch_fn launch,
                     twin_launch_fn launch_ref, const char *extra)
{
    int ndev = 0;
    twin_label_ = label;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "twin %s: no usable GPU\n", label);
        return 3;
    }
    TWIN_CK(cudaSetDevice(0));
    TWIN_CK(cudaFree(0));
    double t_start = twin_now_s();
    std::vector<void *> d(nargs, nullptr), r(nargs, nullptr), h(nargs, nullptr);
    std::vector<unsigned long long> sums(nargs, 0);
    for (int i = 0; i < nargs; i++) {
        const twin_arg *a = &args[i];
        if (a->count < 0)
            continue;
        int type = twin_type_id(a->type);
        if (type < 0) {
            fprintf(stderr, "twin %s: %s: unknown type %s\n", label, a->name, a->type);
            return 1;
        }
        size_t bytes = (size_t)a->count * twin_type_size(type);
        h[i] = twin_host_buffer(a, type, bytes);
        TWIN_CK(cudaMalloc(&d[i], bytes ? bytes : 1));
        TWIN_CK(cudaMemcpy(d[i], h[i], bytes, cudaMemcpyHostToDevice));
        r[i] = d[i];
        if (a->output) {
            TWIN_CK(cudaMalloc(&r[i], bytes ? bytes : 1));
            TWIN_CK(cudaMemcpy(r[i], h[i], bytes, cudaMemcpyHostToDevice));
        } else {
            sums[i] = (unsigned long long)twin_checksum(h[i], bytes);
        }
    }
    if (setup)
        setup();
    launch_ref(r.data());
    TWIN_CK(cudaGetLastError());
    TWIN_CK(cudaDeviceSynchronize());
    launch(d.data());
    TWIN_CK(cudaGetLastError());
    TWIN_CK(cudaDeviceSynchronize());
    if (twin_verify(args, nargs, d.data(), r.data(), h.data()))
        return 1;
    double t_ready = twin_now_s(), t0 = t_ready;
    int warm = 0;
    double est = 0;
    do {   // warm-up: at least 10 launches and 100 ms
        est = twin_time(launch, d.data(), 1, 1)[0];
        warm++;
    } while (warm < 10 || twin_now_s() - t0 < 0.1);
    int per = (int)ceil(20.0 / (est > 1e-4 ? est : 1e-4));
    per = per < 3 ? 3 : per > 20000 ? 20000 : per;
    std::vector<double> batch = twin_time(launch, d.data(), per, 7);
    int each = (int)(60.0 / (est > 1e-4 ? est : 1e-4));
    each = each < 10 ? 10 : each > 200 ? 200 : each;
    std::vector<double> single = twin_time(launch, d.data(), 1, each);
    printf("twin label=%s batch_ms=%.6f batch_min_ms=%.6f per_batch=%d batches=7 each_ms=%.6f each_min_ms=%.6f "
           "each_n=%d warmup=%d setup_s=%.3f timed_s=%.3f %s verified=ok",
           label, twin_median(batch), *std::min_element(batch.begin(), batch.end()), per, twin_median(single),
           *std::min_element(single.begin(), single.end()), each, warm, t_ready - t_start, twin_now_s() - t_ready,
           extra);
    for (int i = 0; i < nargs; i++)
        if (args[i].count >= 0 && !args[i].output)
            printf(" sum_%s=%016llx", args[i].name, sums[i]);
    printf("\n");
    return 0;
}
#endif
