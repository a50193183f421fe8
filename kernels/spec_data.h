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
typedef int gb_sd_i32;
#define gb_sd_mul(x, y) __dmul_rn((x), (y))
#define gb_sd_add(x, y) __dadd_rn((x), (y))
#else
typedef uint64_t gb_sd_u64;
typedef int64_t gb_sd_i64;
typedef uint32_t gb_sd_u32;
typedef int32_t gb_sd_i32;
#define gb_sd_mul(x, y) ((double)(x) * (double)(y))
#define gb_sd_add(x, y) ((double)(x) + (double)(y))
#endif

// The element types (enum gb_spec_type's values) and the initial values
// (enum gb_spec_init's).
#define GB_SD_FLOAT 0
#define GB_SD_DOUBLE 1
#define GB_SD_INT 2
#define GB_SD_UINT 3
#define GB_SD_LONG 4
#define GB_SD_ULONG 5
#define GB_SD_RANDOM 1
#define GB_SD_CONSTANT 2
#define GB_SD_IOTA 3

// The byte an unwritten integer output holds (float outputs: all-ones
// bytes, a NaN).
#define GB_SD_POISON_BYTE 0xA5

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
    return type == GB_SD_FLOAT || type == GB_SD_DOUBLE;
}

GB_HD int gb_sd_size(int type)
{
    return type == GB_SD_DOUBLE || type == GB_SD_LONG || type == GB_SD_ULONG ? 8 : 4;
}

// A random value of [lo, hi], never zero: floats uniform (a draw that
// rounds to zero in the type becomes hi, or lo, or 1), integers whole
// numbers from ceil(lo) to floor(hi) (zero becomes hi, or lo).
GB_HD double gb_sd_random(int type, double lo, double hi, gb_sd_u64 key, gb_sd_u64 i)
{
    double u = gb_sd_unit(key, i);
    if (gb_sd_is_float(type)) {
        double x = gb_sd_add(lo, gb_sd_mul(u, gb_sd_add(hi, -lo)));
        if ((type == GB_SD_FLOAT && (float)x == 0.0f) || x == 0)
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

// Stores x as element i of a typed array.
GB_HD void gb_sd_store(void *p, int type, gb_sd_u64 i, double x)
{
    switch (type) {
    case GB_SD_FLOAT: ((float *)p)[i] = (float)x; break;
    case GB_SD_DOUBLE: ((double *)p)[i] = x; break;
    case GB_SD_INT: ((gb_sd_i32 *)p)[i] = (gb_sd_i32)x; break;
    case GB_SD_UINT: ((gb_sd_u32 *)p)[i] = (gb_sd_u32)x; break;
    case GB_SD_LONG: ((gb_sd_i64 *)p)[i] = (gb_sd_i64)x; break;
    default: ((gb_sd_u64 *)p)[i] = (gb_sd_u64)x; break;
    }
}

// Element i of a typed array as a double.
GB_HD double gb_sd_load(const void *p, int type, gb_sd_u64 i)
{
    switch (type) {
    case GB_SD_FLOAT: return ((const float *)p)[i];
    case GB_SD_DOUBLE: return ((const double *)p)[i];
    case GB_SD_INT: return ((const gb_sd_i32 *)p)[i];
    case GB_SD_UINT: return ((const gb_sd_u32 *)p)[i];
    case GB_SD_LONG: return (double)((const gb_sd_i64 *)p)[i];
    default: return (double)((const gb_sd_u64 *)p)[i];
    }
}

// Whether element i is the same bits in both arrays.
GB_HD int gb_sd_same_bits(const void *a, const void *b, int type, gb_sd_u64 i)
{
    if (gb_sd_size(type) == 8)
        return ((const gb_sd_u64 *)a)[i] == ((const gb_sd_u64 *)b)[i];
    return ((const gb_sd_u32 *)a)[i] == ((const gb_sd_u32 *)b)[i];
}

// Whether element i still holds the poison: a NaN for floats, every byte
// GB_SD_POISON_BYTE for integers.
GB_HD int gb_sd_poisoned(const void *p, int type, gb_sd_u64 i)
{
    if (gb_sd_is_float(type)) {
        double x = gb_sd_load(p, type, i);
        return x != x;
    }
    if (gb_sd_size(type) == 8)
        return ((const gb_sd_u64 *)p)[i] == 0xA5A5A5A5A5A5A5A5ull;
    return ((const gb_sd_u32 *)p)[i] == 0xA5A5A5A5u;
}

// The verification rule: element i of `got` matches `exp` when integers
// without a tolerance are the same bits; else when |got - exp| <= atol +
// rtol * |exp|, where a NaN matches only a NaN (both left the element
// unwritten, or both computed it so).
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
