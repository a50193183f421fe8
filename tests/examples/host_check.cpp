/* host_check.cpp - runs one example kernel configuration on the host
 * (cuda_host.h) against its reference kernel and against the plain formula
 * computed here, with the tolerances of its spec.json. Built by
 * tests/cli/examples_host.sh once per configuration with
 *   -DEX_<EXAMPLE> and the axes as -DAX_<axis>=value
 * (AX_ because -Dn=64 would rewrite the C++ headers; the axes' real names
 * are defined below, after every header, as gpubound's -D defines are).
 * Prints one line; exit 0 when every check holds. */
#include "cuda_host.h"

#ifdef AX_block_size_x
#define block_size_x AX_block_size_x
#endif
#ifdef AX_block_size_y
#define block_size_y AX_block_size_y
#endif
#ifdef AX_work_per_thread
#define work_per_thread AX_work_per_thread
#endif
#ifdef AX_elems_per_thread
#define elems_per_thread AX_elems_per_thread
#endif
#ifdef AX_batch
#define batch AX_batch
#endif
#define n AX_n

#if defined(EX_SGEMM_TILED) || defined(EX_SGEMM_REGBLOCK)
#include "../../examples/sgemm/sgemm.cu"
#elif defined(EX_REDUCTION)
#include "../../examples/reduction/reduction.cu"
#elif defined(EX_FFT)
#include "../../examples/fft/fft.cu"
#elif defined(EX_STENCIL)
#include "../../examples/stencil/stencil.cu"
#endif

/* The problem size, under a name the kernel sources cannot rewrite. */
static const int N_SIZE = AX_n;
#undef n

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static float uniform(float lo, float hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((rng_state >> 40) / 16777216.0);
}

static int failures;

/* |got - want| <= atol + rtol |want| everywhere, as gpubound verifies. */
static void compare(const char *what, const float *got, const float *want, size_t count, double rtol,
                    double atol)
{
    for (size_t i = 0; i < count; i++) {
        double d = std::fabs((double)got[i] - (double)want[i]);
        if (!(d <= atol + rtol * std::fabs((double)want[i]))) {
            printf("  %s: index %zu: %.9g, expected %.9g\n", what, i, (double)got[i], (double)want[i]);
            failures++;
            return;
        }
    }
}

static unsigned ceil_div(long a, long b)
{
    return (unsigned)((a + b - 1) / b);
}

#if defined(EX_SGEMM_TILED) || defined(EX_SGEMM_REGBLOCK)
static void check()
{
    const int sz = N_SIZE;
    std::vector<float> A(sz * sz), B(sz * sz), C(sz * sz, NAN), R(sz * sz, NAN), H(sz * sz);
    for (auto &v : A)
        v = uniform(-1, 1);
    for (auto &v : B)
        v = uniform(-1, 1);
    for (int i = 0; i < sz; i++)
        for (int j = 0; j < sz; j++) {
            double s = 0;
            for (int k = 0; k < sz; k++)
                s += (double)A[i * sz + k] * B[k * sz + j];
            H[i * sz + j] = (float)s;
        }
    gb_launch(sgemm_naive, dim3{ceil_div(sz, 16), ceil_div(sz, 16), 1}, dim3{16, 16, 1}, R.data(),
              (const float *)A.data(), (const float *)B.data(), sz);
#ifdef EX_SGEMM_TILED
    gb_launch(sgemm_tiled, dim3{ceil_div(sz, block_size_x), ceil_div(sz, block_size_x), 1},
              dim3{block_size_x, block_size_x, 1}, C.data(), (const float *)A.data(), (const float *)B.data(), sz);
#else
    gb_launch(sgemm_regblock,
              dim3{ceil_div(sz, block_size_x), ceil_div(sz, block_size_y * work_per_thread), 1},
              dim3{block_size_x, block_size_y, 1}, C.data(), (const float *)A.data(), (const float *)B.data(), sz);
#endif
    compare("reference vs double", R.data(), H.data(), H.size(), 1e-4, 1e-3);
    compare("kernel vs reference", C.data(), R.data(), R.size(), 1e-4, 1e-3);
}
#elif defined(EX_REDUCTION)
static void check()
{
    const int count = N_SIZE;
    std::vector<float> in(count);
    double want = 0;
    for (auto &v : in) {
        v = uniform(0, 1);
        want += v;
    }
    float out = NAN, ref = NAN;
    double acc = 0;
    unsigned ticket = 0;
    const unsigned blocks = ceil_div(count, block_size_x * elems_per_thread);
    gb_launch(sum_reference, dim3{7, 1, 1}, dim3{96, 1, 1}, &ref, (const float *)in.data(), &acc, &ticket, count);
    for (int launch = 0; launch < 2; launch++) {
        out = NAN;
        gb_launch(sum_blocks, dim3{blocks, 1, 1}, dim3{block_size_x, 1, 1}, &out, (const float *)in.data(), &acc,
                  &ticket, count);
        if (acc != 0 || ticket != 0) {
            printf("  launch %d left acc=%g ticket=%u (not 0)\n", launch, acc, ticket);
            failures++;
        }
        compare("kernel vs reference", &out, &ref, 1, 1e-5, 0);
    }
    float h = (float)want;
    compare("reference vs double", &ref, &h, 1, 1e-6, 0);
}
#elif defined(EX_FFT)
static void check()
{
    const int pts = N_SIZE, tr = batch;
    std::vector<float> in(2 * pts * tr), out(2 * pts * tr, NAN), ref(2 * pts * tr, NAN), h(2 * pts * tr);
    for (auto &v : in)
        v = uniform(-1, 1);
    for (int t = 0; t < tr; t++)
        for (int k = 0; k < pts; k++) {
            double re = 0, im = 0;
            for (int j = 0; j < pts; j++) {
                double a = -2 * M_PI * (double)j * k / pts;
                double xr = in[2 * (t * pts + j)], xi = in[2 * (t * pts + j) + 1];
                re += xr * std::cos(a) - xi * std::sin(a);
                im += xr * std::sin(a) + xi * std::cos(a);
            }
            h[2 * (t * pts + k)] = (float)re;
            h[2 * (t * pts + k) + 1] = (float)im;
        }
    gb_launch(dft_reference, dim3{ceil_div((long)pts * tr, 256), 1, 1}, dim3{256, 1, 1}, ref.data(),
              (const float *)in.data(), pts, tr);
    gb_launch(fft_radix2, dim3{(unsigned)tr, 1, 1}, dim3{block_size_x, 1, 1}, out.data(), (const float *)in.data(),
              pts, tr);
    compare("reference vs double", ref.data(), h.data(), h.size(), 1e-4, 1e-3);
    compare("kernel vs reference", out.data(), ref.data(), ref.size(), 1e-4, 1e-3);
}
#elif defined(EX_STENCIL)
static void check()
{
    const int sz = N_SIZE;
    std::vector<float> in(sz * sz), out(sz * sz, NAN), ref(sz * sz, NAN), h(sz * sz);
    for (auto &v : in)
        v = uniform(-1, 1);
    for (int y = 0; y < sz; y++)
        for (int x = 0; x < sz; x++) {
            int i = y * sz + x;
            h[i] = (x == 0 || y == 0 || x == sz - 1 || y == sz - 1)
                       ? in[i]
                       : (float)(0.5 * in[i] + 0.125 * ((double)in[i - 1] + in[i + 1] + in[i - sz] + in[i + sz]));
        }
    gb_launch(stencil_reference, dim3{ceil_div(sz, 16), ceil_div(sz, 16), 1}, dim3{16, 16, 1}, ref.data(),
              (const float *)in.data(), sz);
    gb_launch(stencil5, dim3{ceil_div(sz, block_size_x), ceil_div(sz, block_size_y), 1},
              dim3{block_size_x, block_size_y, 1}, out.data(), (const float *)in.data(), sz);
    compare("reference vs formula", ref.data(), h.data(), h.size(), 1e-6, 1e-6);
    compare("kernel vs reference", out.data(), ref.data(), ref.size(), 1e-6, 1e-6);
}
#endif

int main()
{
    check();
    printf("%s\n", failures ? "FAIL" : "ok");
    return failures ? 1 : 0;
}
