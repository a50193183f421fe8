/* mix.h - splitmix64: a well-mixed 64-bit value of its input, the same on
 * every machine (bootstrap replicates, tuning draws, benchmark inputs). */
#ifndef GB_UTIL_MIX_H
#define GB_UTIL_MIX_H

#include <stdint.h>

/* splitmix64 of x: its finaliser applied to x + the golden-ratio step. */
static inline uint64_t gb_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The next value of the splitmix64 sequence in *state (which advances). */
static inline uint64_t gb_mix64_next(uint64_t *state)
{
    uint64_t v = gb_mix64(*state);
    *state += 0x9e3779b97f4a7c15ull;
    return v;
}

#endif
