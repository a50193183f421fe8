/* corpus_data.c - the host inputs and verification of the corpus twins
 * (corpus_data.h). spec_data.h is gpubound's own table and generator,
 * included here with its host definitions. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernels/spec_data.h"
#include "corpus_data.h"

int twin_type_id(const char *name)
{
#define TWIN_NAME_ROW(id, nm, alias, sz, kd, eb, mb, fnz, rt, at, rg)                                             \
    if (!strcmp(name, nm) || (alias[0] && !strcmp(name, alias)))                                                  \
        return GB_ST_##id;
    GB_SD_TYPES(TWIN_NAME_ROW)
#undef TWIN_NAME_ROW
    return -1;
}

int twin_type_size(int id)
{
    return gb_sd_size(id);
}

void twin_type_tol(int id, double *rtol, double *atol)
{
    switch (id) {
#define TWIN_TOL_ROW(tid, nm, alias, sz, kd, eb, mb, fnz, rt, at, rg)                                             \
    case GB_ST_##tid:                                                                                             \
        *rtol = rt;                                                                                               \
        *atol = at;                                                                                               \
        break;
        GB_SD_TYPES(TWIN_TOL_ROW)
#undef TWIN_TOL_ROW
    default:
        *rtol = *atol = 0;
    }
}

void twin_fill(void *p, uint64_t n, int type, int init, double a, double b, uint64_t key)
{
    long long count = (long long)n;
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < count; i++)
        gb_sd_store(p, type, (uint64_t)i, gb_sd_value(init, type, a, b, key, (uint64_t)i));
}

void twin_poison(void *p, uint64_t n, int type)
{
    memset(p, gb_sd_is_float(type) ? 0xFF : GB_SD_POISON_BYTE, (size_t)n * (size_t)gb_sd_size(type));
}

int twin_read_file(const char *path, void *p, size_t bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t got = fread(p, 1, bytes, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    return got == bytes && !more ? 0 : -1;
}

uint64_t twin_compare(const void *got, const void *exp, uint64_t n, int type, double rtol, double atol,
                      uint64_t *first, double *g, double *e)
{
    uint64_t bad = 0;
    *first = ~0ull;
    for (uint64_t i = 0; i < n; i++)
        if (!gb_sd_match(type, rtol, atol, got, exp, i) && bad++ == 0) {
            *first = i;
            *g = gb_sd_load(got, type, i);
            *e = gb_sd_load(exp, type, i);
        }
    return bad;
}

uint64_t twin_checksum(const void *p, size_t bytes)
{
    const unsigned char *c = (const unsigned char *)p;
    uint64_t h = 0x9E3779B97F4A7C15ull, w;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        memcpy(&w, c + i, 8);
        h = gb_sd_mix(h ^ w);
    }
    for (; i < bytes; i++)
        h = gb_sd_mix(h ^ c[i]);
    return h;
}
