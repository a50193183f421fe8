/* The inputs and the verification rule of kernel spec benches, run on the
 * host from the kernels' own source: kernels/spec_data.h is the file NVRTC
 * compiles into spec_data.cu (cmake/embed.cmake pastes it in). The test
 * checks:
 * - the generator's values, for every type a spec takes and every kind of
 *   initial value, equal a reference written out here from the documented
 *   formula (docs/kernel-spec.md), element by element and bit for bit;
 * - they depend on the run seed, the problem and the buffer, and on nothing
 *   else (every configuration of a problem sees the same inputs);
 * - the rule's host twin (gb_sd_match, through gb_spec_match) on crafted
 *   cases: NaN, the poison, the edges of the tolerance, integers exact;
 * - the poison test matches the bytes gb_spec_poison_buffer writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "suites/spec_internal.h"
#include "../../kernels/spec_data.h"

/* The formula as docs/kernel-spec.md writes it, independently of the header. */
static uint64_t ref_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double ref_value(int init, int type, double a, double b, uint64_t seed, uint64_t problem, int arg, uint64_t i)
{
    uint64_t key = ref_mix(seed ^ ref_mix(problem) ^ ref_mix((uint64_t)arg + 77));
    double u = (double)(ref_mix(key + 0x9E3779B97F4A7C15ull * (i + 1)) >> 11) / 9007199254740992.0;
    if (init == GB_SI_CONSTANT)
        return a;
    if (init == GB_SI_IOTA)
        return a + b * (double)i;
    if (type == GB_ST_FLOAT || type == GB_ST_DOUBLE) {
        double x = a + u * (b - a);
        if (x == 0 || (type == GB_ST_FLOAT && (float)x == 0.0f))
            x = b != 0 ? b : a != 0 ? a : 1;
        return x;
    }
    double lo = ceil(a), hi = floor(b), x = lo + floor(u * (hi - lo + 1));
    x = x > hi ? hi : x;
    return x == 0 ? (hi != 0 ? hi : lo) : x;
}

/* The reference value stored as the type stores it, as raw bits. */
static uint64_t ref_bits(int type, double x)
{
    uint64_t w = 0;
    float f = (float)x;
    int32_t i = (int32_t)x;
    uint32_t u = (uint32_t)x;
    int64_t l = (int64_t)x;
    uint64_t ul = (uint64_t)x;
    switch (type) {
    case GB_ST_FLOAT: memcpy(&w, &f, 4); break;
    case GB_ST_DOUBLE: memcpy(&w, &x, 8); break;
    case GB_ST_INT: memcpy(&w, &i, 4); break;
    case GB_ST_UINT: memcpy(&w, &u, 4); break;
    case GB_ST_LONG: memcpy(&w, &l, 8); break;
    default: memcpy(&w, &ul, 8); break;
    }
    return w;
}

static void test_generator_every_type(void **state)
{
    (void)state;
    /* random ranges, constants and iotas each type holds */
    static const struct {
        int type, init;
        double a, b;
    } cases[] = {
        {GB_ST_FLOAT, GB_SI_RANDOM, -1, 1},     {GB_ST_FLOAT, GB_SI_RANDOM, 0, 1e-30},
        {GB_ST_FLOAT, GB_SI_CONSTANT, 2.5, 0},  {GB_ST_FLOAT, GB_SI_IOTA, 1, 0.1},
        {GB_ST_DOUBLE, GB_SI_RANDOM, -3, 7},    {GB_ST_DOUBLE, GB_SI_CONSTANT, -0.125, 0},
        {GB_ST_DOUBLE, GB_SI_IOTA, -5, 0.3},    {GB_ST_INT, GB_SI_RANDOM, -100, 100},
        {GB_ST_INT, GB_SI_RANDOM, -1.5, 1.5},   {GB_ST_INT, GB_SI_CONSTANT, -7, 0},
        {GB_ST_INT, GB_SI_IOTA, -1000, 3},      {GB_ST_UINT, GB_SI_RANDOM, 0, 4e9},
        {GB_ST_UINT, GB_SI_CONSTANT, 4e9, 0},   {GB_ST_UINT, GB_SI_IOTA, 1, 2},
        {GB_ST_LONG, GB_SI_RANDOM, -1e15, 1e15}, {GB_ST_LONG, GB_SI_CONSTANT, -9e15, 0},
        {GB_ST_LONG, GB_SI_IOTA, -1e12, 17},    {GB_ST_ULONG, GB_SI_RANDOM, 0, 1e18},
        {GB_ST_ULONG, GB_SI_CONSTANT, 1e19, 0}, {GB_ST_ULONG, GB_SI_IOTA, 0, 1e6},
    };
    const uint64_t seed = 0x1234567887654321ull, problem = 0xABCDEF;
    unsigned char buf[8 * 4096];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int t = cases[c].type, zero = 0;
        uint64_t key = gb_sd_stream(seed, problem, 3);
        for (uint64_t i = 0; i < 4096; i++)
            gb_sd_store(buf, t, i, gb_sd_value(cases[c].init, t, cases[c].a, cases[c].b, key, i));
        assert_int_equal(gb_sd_size(t), (int)gb_spec_type_size((enum gb_spec_type)t));
        for (uint64_t i = 0; i < 4096; i++) {
            uint64_t want = ref_bits(t, ref_value(cases[c].init, t, cases[c].a, cases[c].b, seed, problem, 3, i)),
                     got = 0;
            memcpy(&got, buf + i * (size_t)gb_sd_size(t), (size_t)gb_sd_size(t));
            if (got != want)
                fail_msg("case %zu (type %d, init %d): element %llu is %llx, the formula says %llx", c, t,
                         cases[c].init, (unsigned long long)i, (unsigned long long)got, (unsigned long long)want);
            zero += gb_sd_load(buf, t, i) == 0;
        }
        if (cases[c].init == GB_SI_RANDOM)
            assert_int_equal(zero, 0); /* random inputs are never zero */
    }
}

static void test_generator_keys(void **state)
{
    (void)state;
    uint64_t k = gb_sd_stream(1, 2, 0);
    /* reproducible, and different for another seed, problem or buffer */
    assert_true(k == gb_sd_stream(1, 2, 0));
    assert_true(k != gb_sd_stream(3, 2, 0));
    assert_true(k != gb_sd_stream(1, 4, 0));
    assert_true(k != gb_sd_stream(1, 2, 1));
    assert_true(gb_sd_problem(1, 0, 512) != gb_sd_problem(1, 0, 1024));
    assert_true(gb_sd_problem(1, 0, 512) != gb_sd_problem(1, 1, 512));
    double u = gb_sd_unit(k, 0), v = gb_sd_unit(k, 1);
    assert_true(u >= 0 && u < 1 && v >= 0 && v < 1 && u != v);
}

/* The problem hash of a bench: its problem axes only. */
static void test_problem_hash(void **state)
{
    (void)state;
    static struct gb_spec_bench b;
    struct gb_spec_values x, y;
    memset(&x, 0, sizeof x);
    b.n_axes = 2;
    b.problem_mask = 2; /* axis 1 is the problem's, axis 0 a tuning axis */
    x.v[0] = 64;
    x.v[1] = 4096;
    y = x;
    y.v[0] = 128;
    assert_true(gb_spec_problem_hash(&b, &x) == gb_spec_problem_hash(&b, &y));
    y.v[1] = 8192;
    assert_true(gb_spec_problem_hash(&b, &x) != gb_spec_problem_hash(&b, &y));
    b.index = 1; /* another bench of the spec */
    assert_true(gb_spec_problem_hash(&b, &x) != gb_spec_problem_hash(&b, &y));
}

static int match(int type, double rtol, double atol, const void *got, const void *exp, size_t i)
{
    struct gb_spec_arg a;
    memset(&a, 0, sizeof a);
    a.type = (enum gb_spec_type)type;
    a.rtol = rtol;
    a.atol = atol;
    int m = gb_spec_match(&a, got, exp, i);
    assert_int_equal(m, gb_sd_match(type, rtol, atol, got, exp, i));
    return m;
}

static void test_rule_crafted(void **state)
{
    (void)state;
    unsigned char poison[8];
    float fpoison;
    double dpoison;
    memset(poison, 0xFF, sizeof poison); /* gb_spec_poison_buffer's float poison */
    memcpy(&fpoison, poison, 4);
    memcpy(&dpoison, poison, 8);
    /* NaN: the poison matches only a NaN; a computed NaN matches the poison */
    float fe[] = {fpoison, fpoison, 1.0f, NAN}, fg[] = {fpoison, 1.0f, fpoison, fpoison};
    assert_true(match(GB_ST_FLOAT, 1e-4, 1e-5, fg, fe, 0));
    assert_false(match(GB_ST_FLOAT, 1e-4, 1e-5, fg, fe, 1));
    assert_false(match(GB_ST_FLOAT, 1e-4, 1e-5, fg, fe, 2));
    assert_true(match(GB_ST_FLOAT, 1e-4, 1e-5, fg, fe, 3));
    assert_true(gb_sd_poisoned(fg, GB_ST_FLOAT, 0) && !gb_sd_poisoned(fg, GB_ST_FLOAT, 1));
    double de[] = {dpoison}, dg[] = {0};
    assert_true(gb_sd_poisoned(de, GB_ST_DOUBLE, 0) && !gb_sd_poisoned(dg, GB_ST_DOUBLE, 0));
    /* tolerance edges: exactly atol + rtol * |e| matches, the next double does not */
    double e[] = {100, 100, -100, -100}, lim = 0.5 + 0.25 * 100;
    double g[] = {100 + lim, nextafter(100 + lim, 1e9), -100 - lim, nextafter(-100 - lim, -1e9)};
    assert_true(match(GB_ST_DOUBLE, 0.25, 0.5, g, e, 0));
    assert_false(match(GB_ST_DOUBLE, 0.25, 0.5, g, e, 1));
    assert_true(match(GB_ST_DOUBLE, 0.25, 0.5, g, e, 2));
    assert_false(match(GB_ST_DOUBLE, 0.25, 0.5, g, e, 3));
    /* no tolerance at all: floats must be equal */
    double z[] = {1.0, nextafter(1.0, 2)};
    assert_true(match(GB_ST_DOUBLE, 0, 0, z, z, 1));
    assert_false(match(GB_ST_DOUBLE, 0, 0, &z[1], z, 0));
    /* integers: bit for bit, the poison never matches a value, by tolerance when given */
    uint32_t ip = 0xA5A5A5A5u;
    int32_t ie[] = {7, -3, 0}, ig[] = {7, -2, 0};
    memcpy(&ig[2], &ip, 4);
    assert_true(match(GB_ST_INT, 0, 0, ig, ie, 0));
    assert_false(match(GB_ST_INT, 0, 0, ig, ie, 1));
    assert_false(match(GB_ST_INT, 0, 0, ig, ie, 2));
    assert_true(gb_sd_poisoned(ig, GB_ST_INT, 2) && !gb_sd_poisoned(ie, GB_ST_INT, 2));
    assert_true(match(GB_ST_INT, 0, 1, ig, ie, 1));
    uint64_t ue[] = {UINT64_MAX, 0xA5A5A5A5A5A5A5A5ull}, ug[] = {UINT64_MAX - 1, 0xA5A5A5A5A5A5A5A5ull};
    assert_false(match(GB_ST_ULONG, 0, 0, ug, ue, 0)); /* equal as doubles, not bit for bit */
    assert_true(match(GB_ST_ULONG, 0, 0, ug, ue, 1));   /* both unwritten */
    assert_true(gb_sd_poisoned(ug, GB_ST_ULONG, 1) && gb_sd_poisoned(ug, GB_ST_LONG, 1));
    int64_t le[] = {-5}, lg[] = {-5};
    assert_true(match(GB_ST_LONG, 0, 0, lg, le, 0));
    assert_int_equal(GB_SD_POISON_BYTE, 0xA5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_every_type),
        cmocka_unit_test(test_generator_keys),
        cmocka_unit_test(test_problem_hash),
        cmocka_unit_test(test_rule_crafted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
