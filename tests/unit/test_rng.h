/* test_rng.h - the deterministic generator the model tests share, so each
 * test asks the same question every time: xorshift64* for uniform deviates
 * in [0, 1), Box-Muller for normal ones. Seed by assigning rng_state. */
#ifndef GB_TEST_RNG_H
#define GB_TEST_RNG_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state;

static double rng_uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return ((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

static double rng_normal(void)
{
    double u1 = rng_uniform(), u2 = rng_uniform();
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

#endif
