/* loop_trips.c - the trip count of a for loop read from its header, and the
 * built-in CUDA header the parse includes. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_internal.h"

const char gb_an_cuda_header[] =
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n"
    "#define __shared__ __attribute__((shared))\n"
    "#define __constant__ __attribute__((constant))\n"
    "#define __forceinline__ inline __attribute__((always_inline))\n"
    "#define __noinline__ __attribute__((noinline))\n"
    "#define __restrict__ __restrict\n"
    "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))\n"
    "struct __gb_uint3 { unsigned int x, y, z; };\n"
    "extern const __device__ struct __gb_uint3 threadIdx, blockIdx, blockDim, gridDim;\n"
    "extern const __device__ int warpSize;\n"
    "typedef struct { float x, y; } float2;\n"
    "typedef struct { float x, y, z, w; } float4;\n"
    "typedef struct { double x, y; } double2;\n"
    "typedef struct { int x, y; } int2;\n"
    "typedef struct { unsigned int x, y, z; } dim3;\n"
    "__device__ float2 make_float2(float, float);\n"
    "__device__ float4 make_float4(float, float, float, float);\n"
    "__device__ double2 make_double2(double, double);\n"
    "__device__ void __syncthreads(void);\n"
    "__device__ int __syncthreads_count(int); __device__ int __syncthreads_and(int);\n"
    "__device__ int __syncthreads_or(int);\n"
    "__device__ void __syncwarp(unsigned mask = 0xffffffffu);\n"
    "__device__ void __threadfence(void);\n"
    "__device__ float __shfl_down_sync(unsigned, float, unsigned, int = 32);\n"
    "__device__ float __shfl_xor_sync(unsigned, float, int, int = 32);\n"
    "__device__ float __shfl_sync(unsigned, float, int, int = 32);\n"
    "__device__ float atomicAdd(float *, float);\n"
    "__device__ int atomicAdd(int *, int);\n"
    "__device__ unsigned atomicAdd(unsigned *, unsigned);\n"
    "__device__ double atomicAdd(double *, double);\n"
    "__device__ unsigned atomicInc(unsigned *, unsigned);\n"
    "__device__ unsigned long long atomicExch(unsigned long long *, unsigned long long);\n"
    "__device__ double __longlong_as_double(long long);\n"
    "__device__ unsigned __brev(unsigned);\n"
    "__device__ float sinf(float); __device__ float cosf(float);\n"
    "__device__ float __sinf(float); __device__ float __cosf(float);\n"
    "__device__ void sincosf(float, float *, float *);\n"
    "__device__ void __sincosf(float, float *, float *);\n"
    "__device__ void sincospif(float, float *, float *);\n"
    "__device__ float expf(float); __device__ float __expf(float);\n"
    "__device__ float logf(float); __device__ float __logf(float);\n"
    "__device__ float sqrtf(float); __device__ float rsqrtf(float);\n"
    "__device__ float fabsf(float); __device__ float fminf(float, float);\n"
    "__device__ float fmaxf(float, float); __device__ float fmaf(float, float, float);\n"
    "__device__ float __fmaf_rn(float, float, float); __device__ float __fdividef(float, float);\n"
    "__device__ double sin(double); __device__ double cos(double); __device__ double sqrt(double);\n"
    "__device__ double fma(double, double, double); __device__ double exp(double);\n"
    "__device__ int min(int, int); __device__ int max(int, int);\n"
    "__device__ float min(float, float); __device__ float max(float, float);\n"
    "__device__ float __int2float_rn(int); __device__ int __float2int_rn(float);\n";

enum gb_status gb_an_strs_add(char ***v, size_t *n, const char *s)
{
    char **nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    *v = nv;
    if (!(nv[*n] = strdup(s)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    (*n)++;
    return GB_OK;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t k = strspn(s, " \t");
    memmove(s, s + k, strlen(s + k) + 1);
}

/* "int m = 0" -> var "m", start "0". */
static int parse_init(const char *init, char *var, size_t vn, char *start, size_t sn)
{
    const char *eq = strchr(init, '=');
    if (!eq || eq[1] == '=')
        return -1;
    const char *e = eq;
    while (e > init && isspace((unsigned char)e[-1]))
        e--;
    const char *b = e;
    while (b > init && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
        b--;
    if (b == e || (size_t)(e - b) >= vn)
        return -1;
    snprintf(var, vn, "%.*s", (int)(e - b), b);
    snprintf(start, sn, "%s", eq + 1);
    trim(start);
    return start[0] && !strchr(start, ',') ? 0 : -1;
}

/* The comparison of `cond` against `var`: its operator as seen with var on
 * the left, and the bound. */
static int parse_cond(const char *cond, const char *var, char *op, char *bound, size_t bn)
{
    static const char *const ops[] = {"<=", ">=", "!=", "<", ">"};
    static const char *const flip[] = {">=", "<=", "!=", ">", "<"};
    size_t vl = strlen(var);
    for (int i = 0; i < 5; i++) {
        const char *p = strstr(cond, ops[i]);
        if (!p || (i >= 3 && (p[1] == '=' || p[1] == *ops[i] || (p > cond && p[-1] == *ops[i]))))
            continue;
        char lhs[256], rhs[256];
        snprintf(lhs, sizeof lhs, "%.*s", (int)(p - cond), cond);
        snprintf(rhs, sizeof rhs, "%s", p + strlen(ops[i]));
        trim(lhs);
        trim(rhs);
        if (strlen(lhs) == vl && strcmp(lhs, var) == 0) {
            snprintf(op, 3, "%s", ops[i]);
            snprintf(bound, bn, "%s", rhs);
            return 0;
        }
        if (strlen(rhs) == vl && strcmp(rhs, var) == 0) {
            snprintf(op, 3, "%s", flip[i]);
            snprintf(bound, bn, "%s", lhs);
            return 0;
        }
        return -1;
    }
    return -1;
}

/* The increment: kind '+' (step in `step`), '-' (step), '/' (halving) or
 * '*' (doubling). */
static int parse_inc(const char *inc, const char *var, char *step, size_t sn)
{
    char s[256], pat[300];
    snprintf(s, sizeof s, "%s", inc);
    trim(s);
    struct { const char *fmt; int kind; const char *st; } forms[] = {
        {"%s++", '+', "1"}, {"++%s", '+', "1"}, {"%s--", '-', "1"}, {"--%s", '-', "1"},
        {"%s>>=1", '/', "2"}, {"%s/=2", '/', "2"}, {"%s<<=1", '*', "2"}, {"%s*=2", '*', "2"},
    };
    char nospace[256];
    size_t k = 0;
    for (const char *p = s; *p && k + 1 < sizeof nospace; p++)
        if (!isspace((unsigned char)*p))
            nospace[k++] = *p;
    nospace[k] = '\0';
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        snprintf(pat, sizeof pat, forms[i].fmt, var);
        if (strcmp(nospace, pat) == 0) {
            snprintf(step, sn, "%s", forms[i].st);
            return forms[i].kind;
        }
    }
    size_t vl = strlen(var);
    if (strncmp(s, var, vl) == 0) {
        const char *p = s + vl;
        while (isspace((unsigned char)*p))
            p++;
        if ((p[0] == '+' || p[0] == '-') && p[1] == '=') {
            snprintf(step, sn, "%s", p + 2);
            trim(step);
            return p[0];
        }
        /* v = v + S */
        snprintf(pat, sizeof pat, "%s=%s+", var, var);
        if (strncmp(nospace, pat, strlen(pat)) == 0) {
            const char *plus = strchr(strchr(s, '=') + 1, '+');
            snprintf(step, sn, "%s", plus + 1);
            trim(step);
            return '+';
        }
    }
    return 0;
}

static int trips_for(int kind, const char *op, const char *a, const char *b, const char *s,
                     char *t, size_t n)
{
    int unit = !strcmp(a, "0") && !strcmp(s, "1");
    if (unit && kind == '+' && (!strcmp(op, "<") || !strcmp(op, "!=")))
        snprintf(t, n, "max(0, %s)", b);
    else if (unit && kind == '+' && !strcmp(op, "<="))
        snprintf(t, n, "max(0, (%s) + 1)", b);
    else if (kind == '+' && (!strcmp(op, "<") || (!strcmp(op, "!=") && !strcmp(s, "1"))))
        snprintf(t, n, "max(0, ((%s) - (%s) + (%s) - 1) / (%s))", b, a, s, s);
    else if (kind == '+' && !strcmp(op, "<="))
        snprintf(t, n, "max(0, ((%s) - (%s)) / (%s) + 1)", b, a, s);
    else if (kind == '-' && (!strcmp(op, ">") || (!strcmp(op, "!=") && !strcmp(s, "1"))))
        snprintf(t, n, "max(0, ((%s) - (%s) + (%s) - 1) / (%s))", a, b, s, s);
    else if (kind == '-' && !strcmp(op, ">="))
        snprintf(t, n, "max(0, ((%s) - (%s)) / (%s) + 1)", a, b, s);
    else if (kind == '/' && !strcmp(op, ">"))
        snprintf(t, n, "((%s) > (%s) ? ilog2((%s) / ((%s) + 1)) + 1 : 0)", a, b, a, b);
    else if (kind == '/' && !strcmp(op, ">="))
        snprintf(t, n, "((%s) >= (%s) ? ilog2((%s) / (%s)) + 1 : 0)", a, b, a, b);
    else if (kind == '*' && !strcmp(op, "<"))
        snprintf(t, n, "((%s) < (%s) ? clog2(((%s) + (%s) - 1) / (%s)) : 0)", a, b, b, a, a);
    else if (kind == '*' && !strcmp(op, "<="))
        snprintf(t, n, "((%s) <= (%s) ? ilog2((%s) / (%s)) + 1 : 0)", a, b, b, a);
    else
        return -1;
    return 0;
}

/* A block-strided loop, `for (v = threadIdx.x; v < B; v += blockDim.x)` (or
 * `+= block_size_x`, the block's x extent by the kernel-spec convention):
 * the threads of a block together visit every v in [0, B) once, thread t
 * the values t, t + S, ...; the thread with the most iterations, which
 * keeps its warp (and the block, at the next barrier) running, makes
 * ceil(B / S) of them, however few the others make. The per-thread counts
 * are those of that thread, the block's critical path (ceil(B / S) is 1
 * when the block is larger than B, where B / S would be a fraction).
 * Returns 0 and the expression, or -1. */
static int block_strided(int kind, const char *op, const char *a, const char *b, const char *s,
                         char *t, size_t n)
{
    if (kind != '+' || strcmp(op, "<") != 0 || strcmp(a, "threadIdx.x") != 0 ||
        (strcmp(s, "blockDim.x") != 0 && strcmp(s, "block_size_x") != 0))
        return -1;
    snprintf(t, n, "ceil(1.0 * max(0, %s) / (%s))", b, s);
    return 0;
}

int gb_an_loop_unit(const char *init, const char *cond, const char *inc, char *var, size_t vn,
                    char *bound, size_t bn)
{
    char start[256], op[3], step[128];
    if (parse_init(init, var, vn, start, sizeof start) != 0 ||
        parse_cond(cond, var, op, bound, bn) != 0 ||
        parse_inc(inc, var, step, sizeof step) != '+')
        return -1;
    return strcmp(start, "0") == 0 && strcmp(op, "<") == 0 && strcmp(step, "1") == 0 ? 0 : -1;
}

void gb_an_vector_expr(const char *row, const char *trips, int elem_bytes, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    if (elem_bytes < 1 || 16 / elem_bytes < 2)
        return;
    len += (size_t)snprintf(buf, n, "(");
    for (int v = 16 / elem_bytes; v >= 2 && len < n; v /= 2) {
        if (strcmp(row, trips) == 0)
            len += (size_t)snprintf(buf + len, n - len, "(%s) %% %d == 0 ? %d : ", row, v, v);
        else
            len += (size_t)snprintf(buf + len, n - len, "(%s) %% %d == 0 && (%s) %% %d == 0 ? %d : ",
                                    row, v, trips, v, v);
    }
    if (len < n)
        len += (size_t)snprintf(buf + len, n - len, "1)");
    if (len >= n)
        buf[0] = '\0';
}

int gb_an_loop_trips(const char *init, const char *cond, const char *inc, char *trips, size_t n,
                     char *why, size_t wn)
{
    char var[64], start[256], op[3], bound[256], step[128];
    int kind;
    trips[0] = '\0';
    if (parse_init(init, var, sizeof var, start, sizeof start) != 0) {
        snprintf(why, wn, "no single 'var = start' in the initialization '%s'", init);
        return -1;
    }
    if (parse_cond(cond, var, op, bound, sizeof bound) != 0) {
        snprintf(why, wn, "the condition '%s' does not compare %s with a bound", cond, var);
        return -1;
    }
    if (!(kind = parse_inc(inc, var, step, sizeof step))) {
        snprintf(why, wn, "the increment '%s' is not a constant step, halving or doubling of %s",
                 inc, var);
        return -1;
    }
    if (block_strided(kind, op, start, bound, step, trips, n) != 0 &&
        trips_for(kind, op, start, bound, step, trips, n) != 0) {
        snprintf(why, wn, "the condition '%s' does not end the %s of %s", cond,
                 kind == '+' ? "increase" : kind == '-' ? "decrease" : kind == '/' ? "halving"
                                                                                 : "doubling",
                 var);
        return -1;
    }
    return 0;
}
