// spec_data.cu - the device side of kernel spec benches: their inputs made
// on the device, and their outputs compared with the reference there
// (src/suites/spec_args.c, spec_verify.c). The formulas are spec_data.h's,
// which the host tests check against their host twins.
#include "spec_data.h"   // the generator and the rule (pasted in by cmake/embed.cmake)

// Fills n elements of `type` with init random [a, b], constant a or iota
// from a by b, of stream `key`.
extern "C" __global__ void gb_spec_fill(void *p, unsigned long long n, int type, int init, double a, double b,
                                        unsigned long long key)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        gb_sd_store(p, type, i, gb_sd_value(init, type, a, b, key, i));
}

// Counts the elements of `got` that do not match `exp` (the rule of
// gb_sd_match) or, when exp is NULL, that still hold the poison: out[0]
// the count, out[1] the first such index (the caller sets out[0] to 0 and
// out[1] to all ones before the launch).
extern "C" __global__ void gb_spec_compare(const void *got, const void *exp, unsigned long long n, int type,
                                           double rtol, double atol, unsigned long long *out)
{
    unsigned long long bad = 0, first = ~0ull;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        int wrong = exp ? !gb_sd_match(type, rtol, atol, got, exp, i) : gb_sd_poisoned(got, type, i);
        if (wrong) {
            if (!bad)
                first = i;
            bad++;
        }
    }
    if (bad) {
        atomicAdd(&out[0], bad);
        atomicMin(&out[1], first);
    }
}
