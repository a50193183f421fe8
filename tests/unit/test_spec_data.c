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
#include <float.h>
#include <math.h>
#include <cmocka.h>

#include "suites/spec_internal.h"
#include "../../kernels/spec_data.h"

/* The types as docs/kernel-spec.md describes them, written out here
 * independently of the header's table: size, and for the floating types
 * the exponent and stored mantissa bits (fn: no infinities, the top
 * exponent finite but for the all-ones NaN). */
static const struct ref_type {
    int type, size;
    char kind;       /* 'f' float formats, 's' signed, 'u' unsigned */
    int ebits, mbits, fn;
} ref_types[] = {
    {GB_ST_FLOAT, 4, 'f', 8, 23, 0},    {GB_ST_DOUBLE, 8, 'f', 11, 52, 0}, {GB_ST_INT, 4, 's', 0, 0, 0},
    {GB_ST_UINT, 4, 'u', 0, 0, 0},      {GB_ST_LONG, 8, 's', 0, 0, 0},     {GB_ST_ULONG, 8, 'u', 0, 0, 0},
    {GB_ST_HALF, 2, 'f', 5, 10, 0},     {GB_ST_BFLOAT16, 2, 'f', 8, 7, 0}, {GB_ST_FP8_E4M3, 1, 'f', 4, 3, 1},
    {GB_ST_FP8_E5M2, 1, 'f', 5, 2, 0},  {GB_ST_INT8, 1, 's', 0, 0, 0},     {GB_ST_UINT8, 1, 'u', 0, 0, 0},
    {GB_ST_INT16, 2, 's', 0, 0, 0},     {GB_ST_UINT16, 2, 'u', 0, 0, 0},
};
#define N_REF_TYPES (sizeof ref_types / sizeof ref_types[0])

static const struct ref_type *ref_type_of(int type)
{
    for (size_t i = 0; i < N_REF_TYPES; i++)
        if (ref_types[i].type == type)
            return &ref_types[i];
    fail_msg("type %d has no reference row", type);
    return NULL;
}

static int ref_small(const struct ref_type *r)
{
    return r->kind == 'f' && r->size < 4;
}

/* The value of the non-negative code c of a small float format, by the
 * textbook: (1 + m / 2^mbits) 2^(e - bias), or m 2^(1 - bias - mbits)
 * for e = 0; NAN for the codes that are not finite. */
static double ref_small_value(const struct ref_type *r, uint64_t c)
{
    int bias = (1 << (r->ebits - 1)) - 1, top = (1 << r->ebits) - 1;
    uint64_t m = c & ((1u << r->mbits) - 1), e = c >> r->mbits;
    if ((int)e == top && (!r->fn || m == (1u << r->mbits) - 1))
        return NAN;
    if (e == 0)
        return (double)m * pow(2, 1 - bias - r->mbits);
    return (1 + (double)m / pow(2, r->mbits)) * pow(2, (double)e - bias);
}

/* x in a small float format by search: the nearest finite code (the
 * non-negative codes are in the order of their values), ties to the even
 * code, the largest finite beyond it; the sign bit for negative x. */
static uint64_t ref_small_bits(const struct ref_type *r, double x)
{
    uint64_t sign = x < 0 || (x == 0 && signbit(x)) ? 1ull << (r->ebits + r->mbits) : 0, lo = 0, hi;
    double a = fabs(x);
    for (hi = (1ull << (r->ebits + r->mbits)) - 1; isnan(ref_small_value(r, hi)); hi--)
        ;
    if (a >= ref_small_value(r, hi))
        return sign | hi;
    while (hi - lo > 1) { /* value(lo) <= a < value(hi) */
        uint64_t mid = (lo + hi) / 2;
        if (ref_small_value(r, mid) <= a)
            lo = mid;
        else
            hi = mid;
    }
    double dl = a - ref_small_value(r, lo), dh = ref_small_value(r, hi) - a;
    return sign | (dl < dh ? lo : dh < dl ? hi : (lo % 2 == 0 ? lo : hi));
}

/* x as the type rounds it. */
static double ref_round(int type, double x)
{
    const struct ref_type *r = ref_type_of(type);
    if (ref_small(r)) {
        uint64_t b = ref_small_bits(r, x);
        double v = ref_small_value(r, b & ((1ull << (r->ebits + r->mbits)) - 1));
        return b >> (r->ebits + r->mbits) ? -v : v;
    }
    return r->kind == 'f' && r->size == 4 ? (double)(float)x : x;
}

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
    if (ref_type_of(type)->kind == 'f') {
        double x = a + u * (b - a);
        if (ref_round(type, x) == 0)
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
    const struct ref_type *r = ref_type_of(type);
    uint64_t w = 0;
    float f = (float)x;
    if (ref_small(r))
        return ref_small_bits(r, x);
    if (r->kind == 'f' && r->size == 4)
        memcpy(&w, &f, 4);
    else if (r->kind == 'f')
        memcpy(&w, &x, 8);
    else if (r->kind == 's')
        w = (uint64_t)(int64_t)x; /* two's complement, cut to the size below */
    else
        w = (uint64_t)x;
    return r->size == 8 ? w : w & ((1ull << (8 * r->size)) - 1);
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
        {GB_ST_HALF, GB_SI_RANDOM, -1, 1},      {GB_ST_HALF, GB_SI_RANDOM, 0, 1e-7},
        {GB_ST_HALF, GB_SI_RANDOM, -65504, 65504}, {GB_ST_HALF, GB_SI_CONSTANT, 0.1, 0},
        {GB_ST_HALF, GB_SI_IOTA, -3, 0.001},    {GB_ST_BFLOAT16, GB_SI_RANDOM, -3, 7},
        {GB_ST_BFLOAT16, GB_SI_RANDOM, 1e-40, 1e-38}, {GB_ST_BFLOAT16, GB_SI_CONSTANT, -1e30, 0},
        {GB_ST_BFLOAT16, GB_SI_IOTA, 1, 0.37},  {GB_ST_FP8_E4M3, GB_SI_RANDOM, -448, 448},
        {GB_ST_FP8_E4M3, GB_SI_RANDOM, 0, 0.01}, {GB_ST_FP8_E4M3, GB_SI_CONSTANT, 0.3, 0},
        {GB_ST_FP8_E4M3, GB_SI_IOTA, -4, 0.002}, {GB_ST_FP8_E5M2, GB_SI_RANDOM, -1, 1},
        {GB_ST_FP8_E5M2, GB_SI_RANDOM, -57344, 57344}, {GB_ST_FP8_E5M2, GB_SI_CONSTANT, 57344, 0},
        {GB_ST_FP8_E5M2, GB_SI_IOTA, -2, 0.01}, {GB_ST_INT8, GB_SI_RANDOM, -128, 127},
        {GB_ST_INT8, GB_SI_CONSTANT, -128, 0},  {GB_ST_INT8, GB_SI_IOTA, -128, 0.0625},
        {GB_ST_UINT8, GB_SI_RANDOM, 0, 255},    {GB_ST_UINT8, GB_SI_CONSTANT, 255, 0},
        {GB_ST_UINT8, GB_SI_IOTA, 0, 0.0625},   {GB_ST_INT16, GB_SI_RANDOM, -32768, 32767},
        {GB_ST_INT16, GB_SI_CONSTANT, -32768, 0}, {GB_ST_INT16, GB_SI_IOTA, -30000, 7},
        {GB_ST_UINT16, GB_SI_RANDOM, 1, 65535}, {GB_ST_UINT16, GB_SI_CONSTANT, 65535, 0},
        {GB_ST_UINT16, GB_SI_IOTA, 0, 16},
    };
    int seen[GB_SD_N_TYPES] = {0};
    const uint64_t seed = 0x1234567887654321ull, problem = 0xABCDEF;
    unsigned char buf[8 * 4096];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int t = cases[c].type, zero = 0;
        seen[t] = 1;
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
    /* every row of the table has cases and a reference row of the same size and kind */
    assert_int_equal(N_REF_TYPES, GB_SD_N_TYPES);
    for (int t = 0; t < GB_SD_N_TYPES; t++) {
        const struct ref_type *r = ref_type_of(t);
        assert_true(seen[t]);
        assert_int_equal(gb_sd_size(t), r->size);
        assert_int_equal(gb_sd_is_float(t), r->kind == 'f');
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

/* Known encodings of the small floats (from their formats' definitions):
 * 1.0, the largest finite, the least subnormal, a tie to even. */
static void test_small_encodings(void **state)
{
    (void)state;
    static const struct {
        int type;
        double x;
        uint64_t bits;
    } known[] = {
        {GB_ST_HALF, 1.0, 0x3C00},           {GB_ST_HALF, 65504, 0x7BFF},       {GB_ST_HALF, 0x1p-24, 0x0001},
        {GB_ST_HALF, -2.0, 0xC000},          {GB_ST_HALF, 1 + 0x1p-11, 0x3C00}, {GB_ST_HALF, 1 + 3 * 0x1p-11, 0x3C02},
        {GB_ST_HALF, 1e9, 0x7BFF},           {GB_ST_HALF, INFINITY, 0x7C00},    {GB_ST_BFLOAT16, 1.0, 0x3F80},
        {GB_ST_BFLOAT16, -2.0, 0xC000},      {GB_ST_BFLOAT16, 0x1p-133, 0x0001}, {GB_ST_BFLOAT16, 3.0, 0x4040},
        {GB_ST_FP8_E4M3, 1.0, 0x38},         {GB_ST_FP8_E4M3, 448, 0x7E},       {GB_ST_FP8_E4M3, 1000, 0x7E},
        {GB_ST_FP8_E4M3, 0x1p-9, 0x01},      {GB_ST_FP8_E4M3, -1.0, 0xB8},      {GB_ST_FP8_E4M3, INFINITY, 0x7E},
        {GB_ST_FP8_E5M2, 1.0, 0x3C},         {GB_ST_FP8_E5M2, 57344, 0x7B},     {GB_ST_FP8_E5M2, 0x1p-16, 0x01},
        {GB_ST_FP8_E5M2, 1.125, 0x3C},       {GB_ST_FP8_E5M2, 1.375, 0x3E},     {GB_ST_FP8_E5M2, -INFINITY, 0xFC},
    };
    unsigned char buf[8];
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        int t = known[k].type;
        memset(buf, 0, sizeof buf);
        gb_sd_store(buf, t, 0, known[k].x);
        uint64_t got = gb_sd_word(buf, gb_sd_size(t), 0);
        if (got != known[k].bits)
            fail_msg("%s %.17g: bits %llx, not %llx", gb_spec_type_name((enum gb_spec_type)t), known[k].x,
                     (unsigned long long)got, (unsigned long long)known[k].bits);
        if (isfinite(known[k].x) && fabs(known[k].x) <= gb_sd_max(gb_sd_fmt_of(t)))
            assert_true(gb_sd_load(buf, t, 0) == ref_round(t, known[k].x));
    }
    /* the largest finite values, from the formats alone */
    assert_true(gb_sd_max(gb_sd_fmt_of(GB_ST_HALF)) == 65504);
    assert_true(gb_sd_max(gb_sd_fmt_of(GB_ST_FP8_E4M3)) == 448);
    assert_true(gb_sd_max(gb_sd_fmt_of(GB_ST_FP8_E5M2)) == 57344);
    assert_true(gb_sd_max(gb_sd_fmt_of(GB_ST_FLOAT)) == FLT_MAX);
    assert_true(gb_sd_max(gb_sd_fmt_of(GB_ST_DOUBLE)) == DBL_MAX);
    assert_true(gb_sd_max(gb_sd_fmt_of(GB_ST_BFLOAT16)) == 0x1.FEp127);
}

/* The rule on every type: the poison (all-ones bytes, a NaN in every
 * floating format; 0xA5 bytes in every integer) matches only the poison;
 * the default tolerances of each small float take two units in the last
 * place at 1.0 and refuse three; integers are exact and bit for bit. */
static void test_rule_every_type(void **state)
{
    (void)state;
    for (int t = 0; t < GB_SD_N_TYPES; t++) {
        const struct ref_type *r = ref_type_of(t);
        size_t sz = (size_t)r->size;
        unsigned char poison[16], val[16], exp[16];
        double rtol, atol;
        gb_spec_type_tolerance((enum gb_spec_type)t, &rtol, &atol);
        memset(poison, r->kind == 'f' ? 0xFF : GB_SD_POISON_BYTE, sizeof poison);
        memset(val, 0, sizeof val);
        gb_sd_store(val, t, 0, 1.0);
        gb_sd_store(val, t, 1, 2.0);
        assert_true(gb_sd_poisoned(poison, t, 0) && gb_sd_poisoned(poison, t, 1));
        assert_false(gb_sd_poisoned(val, t, 0));
        assert_true(match(t, rtol, atol, poison, poison, 0));   /* both unwritten */
        assert_false(match(t, rtol, atol, poison, val, 0));     /* unwritten */
        assert_false(match(t, rtol, atol, val, poison, 0));
        assert_true(match(t, rtol, atol, val, val, 1));
        assert_false(match(t, rtol, atol, val + sz, val, 0));   /* 2 against 1 */
        if (r->kind != 'f') {
            assert_true(rtol == 0 && atol == 0);                 /* integers: exact */
            gb_sd_store(exp, t, 0, 1.0);
            gb_sd_store(exp, t, 1, r->kind == 's' ? -1.0 : 3.0);
            gb_sd_store(val, t, 1, r->kind == 's' ? -2.0 : 4.0);
            assert_true(match(t, 0, 0, val, exp, 0));
            assert_false(match(t, 0, 0, val, exp, 1));           /* one apart */
            assert_true(match(t, 0, 1, val, exp, 1));            /* by a tolerance when one is given */
            /* loads sign-extend: the poison of an int8 reads -91, of a uint8 165 */
            double word = (double)(0xA5A5A5A5A5A5A5A5ull >> (64 - 8 * sz));
            if (sz < 8)
                assert_true(gb_sd_load(poison, t, 0) == (r->kind == 's' ? word - pow(2, 8.0 * (double)sz) : word));
            continue;
        }
        if (!ref_small(r))
            continue;
        double ulp = pow(2, -r->mbits);
        gb_sd_store(exp, t, 0, 1.0);
        gb_sd_store(val, t, 0, 1 + 2 * ulp);
        gb_sd_store(val, t, 1, 1 + 3 * ulp);
        assert_true(gb_sd_load(val, t, 0) == 1 + 2 * ulp && gb_sd_load(val, t, 1) == 1 + 3 * ulp);
        assert_true(rtol == 2 * ulp && atol == rtol / 10);
        assert_true(match(t, rtol, atol, val, exp, 0));          /* two units: the edge, inside */
        gb_sd_store(exp, t, 1, 1.0);
        assert_false(match(t, rtol, atol, val, exp, 1));         /* three: outside */
        gb_sd_store(exp, t, 1, -1.0);
        gb_sd_store(val, t, 1, -1 - 2 * ulp);
        assert_true(match(t, rtol, atol, val, exp, 1));          /* the same below zero */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_every_type),
        cmocka_unit_test(test_generator_keys),
        cmocka_unit_test(test_problem_hash),
        cmocka_unit_test(test_rule_crafted),
        cmocka_unit_test(test_small_encodings),
        cmocka_unit_test(test_rule_every_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
