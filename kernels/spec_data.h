// spec_data.h - the inputs and the verification rule of kernel spec
// benches, shared by the kernels that apply them on the device
// (spec_data.cu) and the host (src/suites/spec_args.c, spec_verify.c, and
// the unit test that checks the two agree, tests/unit/test_spec_data.c).
// There is one copy: cmake/embed.cmake pastes this file into spec_data.cu
// where it is included. Keep it to the common subset of C and CUDA C++
// (pointers, no references, no templates); the host includes <math.h> and
// <stdint.h> first.
//
// Inputs: element i of buffer `arg` of a problem is a function of a 64-bit
// stream key alone, gb_sd_stream(run seed, problem hash, arg), and i: a
// counter-based generator (the splitmix64 finaliser of key + golden * (i+1),
// 53 bits of it as a double in [0, 1)). Every configuration of one problem
// sees the same values, on any host, in any order of generation.
//
// Arithmetic on doubles goes through gb_sd_mul and gb_sd_add, so that the
// device never contracts a multiply and an add into one FMA (the host
// rounds each): the device's values equal the host twin's bit for bit.
#ifndef GB_SPEC_DATA_H
#define GB_SPEC_DATA_H

#ifndef GB_HD
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GB_HD __device__ __forceinline__
#else
#define GB_HD static inline
#endif
#endif

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
typedef unsigned long long gb_sd_u64;
typedef long long gb_sd_i64;
typedef unsigned int gb_sd_u32;
typedef unsigned short gb_sd_u16;
typedef unsigned char gb_sd_u8;
#define gb_sd_mul(x, y) __dmul_rn((x), (y))
#define gb_sd_add(x, y) __dadd_rn((x), (y))
#else
typedef uint64_t gb_sd_u64;
typedef int64_t gb_sd_i64;
typedef uint32_t gb_sd_u32;
typedef uint16_t gb_sd_u16;
typedef uint8_t gb_sd_u8;
#define gb_sd_mul(x, y) ((double)(x) * (double)(y))
#define gb_sd_add(x, y) ((double)(x) + (double)(y))
#endif

// The element types: one row a type, and nothing else in gpubound names a
// type (a new type is a row). Columns:
//   ID       the enum's value, GB_ST_<ID> (rows in order: 0, 1, ...)
//   name     what a spec's "type" says, and an alias ("" for none)
//   size     bytes an element takes
//   kind     GB_SD_IEEE: the compilers' own float (4) or double (8), a cast;
//            GB_SD_SMALL: a floating format of `ebits` exponent and `mbits`
//            stored mantissa bits rounded here (gb_sd_small_encode), `fn`
//            set when it has no infinities and its top exponent holds
//            finite values (fp8 e4m3: only S.1111.111 is a NaN);
//            GB_SD_SIGNED, GB_SD_UNSIGNED: two's complement integers of
//            `size` bytes (their range follows from it)
//   rtol, atol  the default tolerances of an output (docs/kernel-spec.md:
//            float and double as before; the small floats 2 units in the last
//            place of their precision relative to magnitude, 2 x 2^-mbits,
//            and atol a tenth of it, as float's 1e-4 and 1e-5; integers 0:
//            compared bit for bit)
//   range    the values a spec may give, in words, for messages
// The largest finite value of a floating type follows from ebits, mbits
// and fn (gb_sd_max): FLT_MAX, DBL_MAX, 65504, 3.39e38, 448, 57344.
#define GB_SD_IEEE 0
#define GB_SD_SMALL 1
#define GB_SD_SIGNED 2
#define GB_SD_UNSIGNED 3

#define GB_SD_TYPES(X)                                                                                              \
    X(FLOAT, "float", "", 4, GB_SD_IEEE, 8, 23, 0, 1e-4, 1e-5, "a finite float (at most 3.4e38 in magnitude)")    \
    X(DOUBLE, "double", "", 8, GB_SD_IEEE, 11, 52, 0, 1e-9, 1e-12, "a finite double")                              \
    X(INT, "int", "int32", 4, GB_SD_SIGNED, 0, 0, 0, 0, 0, "an int (-2^31 to 2^31-1)")                            \
    X(UINT, "uint", "uint32", 4, GB_SD_UNSIGNED, 0, 0, 0, 0, 0, "a uint (0 to 2^32-1)")                           \
    X(LONG, "long", "int64", 8, GB_SD_SIGNED, 0, 0, 0, 0, 0, "a long (-2^63 to 2^63-1)")                          \
    X(ULONG, "ulong", "uint64", 8, GB_SD_UNSIGNED, 0, 0, 0, 0, 0, "a ulong (0 to 2^64-1)")                        \
    X(HALF, "half", "float16", 2, GB_SD_SMALL, 5, 10, 0, 0x1p-9, 0x1p-9 / 10,                                     \
      "a finite half (at most 65504 in magnitude)")                                                                 \
    X(BFLOAT16, "bfloat16", "bf16", 2, GB_SD_SMALL, 8, 7, 0, 0x1p-6, 0x1p-6 / 10,                                 \
      "a finite bfloat16 (at most 3.39e38 in magnitude)")                                                           \
    X(FP8_E4M3, "fp8_e4m3", "", 1, GB_SD_SMALL, 4, 3, 1, 0x1p-2, 0x1p-2 / 10,                                     \
      "a finite fp8_e4m3 (at most 448 in magnitude)")                                                               \
    X(FP8_E5M2, "fp8_e5m2", "", 1, GB_SD_SMALL, 5, 2, 0, 0x1p-1, 0x1p-1 / 10,                                     \
      "a finite fp8_e5m2 (at most 57344 in magnitude)")                                                             \
    X(INT8, "int8", "", 1, GB_SD_SIGNED, 0, 0, 0, 0, 0, "an int8 (-128 to 127)")                                  \
    X(UINT8, "uint8", "", 1, GB_SD_UNSIGNED, 0, 0, 0, 0, 0, "a uint8 (0 to 255)")                                 \
    X(INT16, "int16", "", 2, GB_SD_SIGNED, 0, 0, 0, 0, 0, "an int16 (-32768 to 32767)")                           \
    X(UINT16, "uint16", "", 2, GB_SD_UNSIGNED, 0, 0, 0, 0, 0, "a uint16 (0 to 65535)")

#define GB_SD_ENUM_ROW(id, nm, alias, sz, kd, eb, mb, fn, rt, at, rg) GB_ST_##id,
enum gb_spec_type { GB_SD_TYPES(GB_SD_ENUM_ROW) GB_SD_N_TYPES };
#undef GB_SD_ENUM_ROW

// The initial values (enum gb_spec_init's).
#define GB_SD_RANDOM 1
#define GB_SD_CONSTANT 2
#define GB_SD_IOTA 3

// The byte an unwritten integer output holds (float outputs: all-ones
// bytes, a NaN in every floating format of the table).
#define GB_SD_POISON_BYTE 0xA5

// What the generator, the loads and stores and the rule need of a type.
struct gb_sd_fmt {
    int size, kind, ebits, mbits, fn;
};

GB_HD struct gb_sd_fmt gb_sd_fmt_of(int type)
{
    struct gb_sd_fmt f = {4, GB_SD_IEEE, 8, 23, 0};
    switch (type) {
#define GB_SD_FMT_ROW(id, nm, alias, sz, kd, eb, mb, fnz, rt, at, rg)                                             \
    case GB_ST_##id:                                                                                                \
        f.size = sz;                                                                                                \
        f.kind = kd;                                                                                                \
        f.ebits = eb;                                                                                               \
        f.mbits = mb;                                                                                               \
        f.fn = fnz;                                                                                                 \
        break;
        GB_SD_TYPES(GB_SD_FMT_ROW)
#undef GB_SD_FMT_ROW
    }
    return f;
}

GB_HD gb_sd_u64 gb_sd_mix(gb_sd_u64 z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The stream of buffer `arg` of a problem: the run's seed, the problem's
// hash (of the bench and its problem-axis values, gb_sd_problem).
GB_HD gb_sd_u64 gb_sd_stream(gb_sd_u64 run_seed, gb_sd_u64 problem, int arg)
{
    return gb_sd_mix(run_seed ^ gb_sd_mix(problem) ^ gb_sd_mix((gb_sd_u64)arg + 77ull));
}

// Folds problem-axis value `v` of axis `axis` into a problem hash h (start
// from the bench's index + 1).
GB_HD gb_sd_u64 gb_sd_problem(gb_sd_u64 h, int axis, gb_sd_i64 v)
{
    return gb_sd_mix(h ^ (gb_sd_u64)v ^ ((gb_sd_u64)axis << 56));
}

// Element i of a stream as a double in [0, 1).
GB_HD double gb_sd_unit(gb_sd_u64 key, gb_sd_u64 i)
{
    return (double)(gb_sd_mix(key + 0x9E3779B97F4A7C15ull * (i + 1ull)) >> 11) * 0x1.0p-53;
}

GB_HD int gb_sd_is_float(int type)
{
    int k = gb_sd_fmt_of(type).kind;
    return k == GB_SD_IEEE || k == GB_SD_SMALL;
}

GB_HD int gb_sd_size(int type)
{
    return gb_sd_fmt_of(type).size;
}

// The largest finite value of a floating format: the top exponent's
// largest mantissa, one below the top exponent when that holds the
// infinities and NaNs, else (fn) the top exponent's but the all-ones NaN.
GB_HD double gb_sd_max(struct gb_sd_fmt f)
{
    int bias = (1 << (f.ebits - 1)) - 1, top = (1 << f.ebits) - 1 - (f.fn ? 0 : 1);
    double frac = f.fn ? 2.0 - ldexp(1.0, 1 - f.mbits) : 2.0 - ldexp(1.0, -f.mbits);
    return ldexp(frac, top - bias);
}

// x (a double) in a small floating format, as its bits: rounded to the
// nearest value, ties to the even mantissa (as CUDA's _rn conversions); a
// NaN is all ones; beyond the largest finite value (infinities of a format
// without them too) the largest finite (as CUDA's satfinite conversions);
// an infinity stays one where the format has them. Every step is exact in
// double (scaling by powers of two, rint), on the host and the device.
GB_HD gb_sd_u64 gb_sd_small_encode(double x, struct gb_sd_fmt f)
{
    int bias = (1 << (f.ebits - 1)) - 1, ex = 0;
    gb_sd_u64 sign = 0, mant_all = (1ull << f.mbits) - 1, top = (1ull << f.ebits) - 1;
    if (x != x)
        return (1ull << (1 + f.ebits + f.mbits)) - 1;
    if (x < 0 || (x == 0 && 1.0 / x < 0)) {
        sign = 1ull << (f.ebits + f.mbits);
        x = -x;
    }
    double mx = gb_sd_max(f);
    if (x > mx && !f.fn && gb_sd_add(x, -x) != 0)   // an infinity, in a format that has them
        return sign | (top << f.mbits);
    if (x >= mx)
        return sign | (f.fn ? (top << f.mbits) | (mant_all - 1) : ((top - 1) << f.mbits) | mant_all);
    if (x == 0)
        return sign;
    frexp(x, &ex);
    int e = ex - 1 < 1 - bias ? 1 - bias : ex - 1;   // x's binade, or the subnormals'
    double r = rint(gb_sd_mul(x, ldexp(1.0, f.mbits - e)));  // x in units of its last place
    if (r >= ldexp(1.0, f.mbits + 1)) {              // rounded up into the next binade
        r = gb_sd_mul(r, 0.5);
        e++;
    }
    if (r < ldexp(1.0, f.mbits))                     // a subnormal (or zero)
        return sign | (gb_sd_u64)r;
    gb_sd_u64 code = ((gb_sd_u64)(e + bias) << f.mbits) | ((gb_sd_u64)r - (1ull << f.mbits));
    gb_sd_u64 maxc = f.fn ? (top << f.mbits) | (mant_all - 1) : ((top - 1) << f.mbits) | mant_all;
    return sign | (code > maxc ? maxc : code);
}

// The value of the bits w of a small floating format, exactly.
GB_HD double gb_sd_small_decode(gb_sd_u64 w, struct gb_sd_fmt f)
{
    int bias = (1 << (f.ebits - 1)) - 1;
    gb_sd_u64 mant_all = (1ull << f.mbits) - 1, top = (1ull << f.ebits) - 1;
    gb_sd_u64 m = w & mant_all, e = (w >> f.mbits) & top;
    double s = (w >> (f.ebits + f.mbits)) & 1 ? -1.0 : 1.0, inf = ldexp(1.0, 4096);
    if (e == top && (f.fn ? m == mant_all : 1))
        return m == 0 && !f.fn ? s * inf : inf - inf;
    if (e == 0)
        return s * ldexp((double)m, 1 - bias - f.mbits);
    return s * ldexp((double)(m + (1ull << f.mbits)), (int)e - bias - f.mbits);
}

// x as the type holds it (its rounding, for the floating types).
GB_HD double gb_sd_round(int type, double x)
{
    struct gb_sd_fmt f = gb_sd_fmt_of(type);
    if (f.kind == GB_SD_SMALL)
        return gb_sd_small_decode(gb_sd_small_encode(x, f), f);
    return f.kind == GB_SD_IEEE && f.size == 4 ? (double)(float)x : x;
}

// A random value of [lo, hi], never zero: floats uniform (a draw that
// rounds to zero in the type becomes hi, or lo, or 1), integers whole
// numbers from ceil(lo) to floor(hi) (zero becomes hi, or lo).
GB_HD double gb_sd_random(int type, double lo, double hi, gb_sd_u64 key, gb_sd_u64 i)
{
    double u = gb_sd_unit(key, i);
    if (gb_sd_is_float(type)) {
        double x = gb_sd_add(lo, gb_sd_mul(u, gb_sd_add(hi, -lo)));
        if (gb_sd_round(type, x) == 0)
            x = hi != 0 ? hi : lo != 0 ? lo : 1;
        return x;
    }
    double l = ceil(lo), h = floor(hi);
    double x = gb_sd_add(l, floor(gb_sd_mul(u, gb_sd_add(gb_sd_add(h, -l), 1.0))));
    if (x > h)
        x = h;
    if (x == 0)
        x = h != 0 ? h : l;
    return x;
}

// Element i of an input: random [a, b], constant a, or iota from a by b.
GB_HD double gb_sd_value(int init, int type, double a, double b, gb_sd_u64 key, gb_sd_u64 i)
{
    if (init == GB_SD_RANDOM)
        return gb_sd_random(type, a, b, key, i);
    if (init == GB_SD_IOTA)
        return gb_sd_add(a, gb_sd_mul(b, (double)i));
    return a;
}

// The raw bits of element i of an array of `size`-byte elements.
GB_HD gb_sd_u64 gb_sd_word(const void *p, int size, gb_sd_u64 i)
{
    switch (size) {
    case 1: return ((const gb_sd_u8 *)p)[i];
    case 2: return ((const gb_sd_u16 *)p)[i];
    case 4: return ((const gb_sd_u32 *)p)[i];
    default: return ((const gb_sd_u64 *)p)[i];
    }
}

// Stores the low `size` bytes of w as element i.
GB_HD void gb_sd_put_word(void *p, int size, gb_sd_u64 i, gb_sd_u64 w)
{
    switch (size) {
    case 1: ((gb_sd_u8 *)p)[i] = (gb_sd_u8)w; break;
    case 2: ((gb_sd_u16 *)p)[i] = (gb_sd_u16)w; break;
    case 4: ((gb_sd_u32 *)p)[i] = (gb_sd_u32)w; break;
    default: ((gb_sd_u64 *)p)[i] = w; break;
    }
}

// Stores x (a value of the type) as element i of a typed array.
GB_HD void gb_sd_store(void *p, int type, gb_sd_u64 i, double x)
{
    struct gb_sd_fmt f = gb_sd_fmt_of(type);
    if (f.kind == GB_SD_IEEE && f.size == 4)
        ((float *)p)[i] = (float)x;
    else if (f.kind == GB_SD_IEEE)
        ((double *)p)[i] = x;
    else if (f.kind == GB_SD_SMALL)
        gb_sd_put_word(p, f.size, i, gb_sd_small_encode(x, f));
    else if (f.kind == GB_SD_SIGNED)
        gb_sd_put_word(p, f.size, i, (gb_sd_u64)(gb_sd_i64)x);
    else
        gb_sd_put_word(p, f.size, i, (gb_sd_u64)x);
}

// Element i of a typed array as a double (exact but for 64-bit integers
// beyond 2^53).
GB_HD double gb_sd_load(const void *p, int type, gb_sd_u64 i)
{
    struct gb_sd_fmt f = gb_sd_fmt_of(type);
    if (f.kind == GB_SD_IEEE)
        return f.size == 4 ? (double)((const float *)p)[i] : ((const double *)p)[i];
    gb_sd_u64 w = gb_sd_word(p, f.size, i);
    if (f.kind == GB_SD_SMALL)
        return gb_sd_small_decode(w, f);
    if (f.kind == GB_SD_UNSIGNED)
        return (double)w;
    int bits = 8 * f.size;
    if (bits < 64 && (w >> (bits - 1)) & 1)   // negative: sign-extend
        w |= ~0ull << bits;
    return (double)(gb_sd_i64)w;
}

// Whether element i is the same bits in both arrays.
GB_HD int gb_sd_same_bits(const void *a, const void *b, int type, gb_sd_u64 i)
{
    int size = gb_sd_size(type);
    return gb_sd_word(a, size, i) == gb_sd_word(b, size, i);
}

// Whether element i still holds the poison: a NaN for floats, every byte
// GB_SD_POISON_BYTE for integers.
GB_HD int gb_sd_poisoned(const void *p, int type, gb_sd_u64 i)
{
    if (gb_sd_is_float(type)) {
        double x = gb_sd_load(p, type, i);
        return x != x;
    }
    int size = gb_sd_size(type);
    return gb_sd_word(p, size, i) == (0xA5A5A5A5A5A5A5A5ull >> (64 - 8 * size));
}

// The verification rule: element i of `got` matches `exp` when integers
// without a tolerance are the same bits; else when |got - exp| <= atol +
// rtol * |exp|, where a NaN matches only a NaN (both left the element
// unwritten, or both computed it so). Both values are read exactly from
// the type (the comparison is in the type's own precision: a small float
// differs from its reference by whole units of its last place).
GB_HD int gb_sd_match(int type, double rtol, double atol, const void *got, const void *exp, gb_sd_u64 i)
{
    if (!gb_sd_is_float(type) && rtol == 0 && atol == 0)
        return gb_sd_same_bits(got, exp, type, i);
    double g = gb_sd_load(got, type, i), e = gb_sd_load(exp, type, i);
    if (g != g || e != e)
        return g != g && e != e;
    return fabs(gb_sd_add(g, -e)) <= gb_sd_add(atol, gb_sd_mul(rtol, fabs(e)));
}

#endif
