/* cexpr.c - C expression text evaluated to a number (gpubound/cexpr.h). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/cexpr.h"

struct val {
    double v;
    int is_int;
};

struct parser {
    const char *text, *p;
    enum gb_cexpr_mode mode;
    gb_cexpr_lookup lookup;
    void *ctx;
    enum gb_status st;
    int depth;
};

static enum gb_status expr(struct parser *ps, struct val *out);

static void skip(struct parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static enum gb_status fail(struct parser *ps, enum gb_status st, const char *why)
{
    if (ps->st == GB_OK)
        ps->st = gb_error_set(st, "expression '%s': %s at offset %d", ps->text, why,
                              (int)(ps->p - ps->text));
    return ps->st;
}

/* Matches operator `op` (and not a longer one starting with it). */
static int accept(struct parser *ps, const char *op)
{
    size_t n = strlen(op);
    skip(ps);
    if (strncmp(ps->p, op, n) != 0)
        return 0;
    char next = ps->p[n];
    if ((strcmp(op, "<") == 0 || strcmp(op, ">") == 0) && (next == '=' || next == *op))
        return 0;
    if ((strcmp(op, "=") == 0 || strcmp(op, "!") == 0) && next == '=')
        return 0;
    if ((strcmp(op, "&") == 0 && next == '&') || (strcmp(op, "|") == 0 && next == '|'))
        return 0;
    ps->p += n;
    return 1;
}

static struct val mk(double v, int is_int)
{
    struct val r = {is_int ? trunc(v) : v, is_int};
    return r;
}

static enum gb_status number(struct parser *ps, struct val *out)
{
    char *end;
    const char *s = ps->p;
    int is_int = 1;
    double v;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        v = (double)strtoull(s, &end, 16);
    } else {
        v = strtod(s, &end);
        for (const char *q = s; q < end; q++)
            if (*q == '.' || *q == 'e' || *q == 'E')
                is_int = 0;
    }
    if (end == s)
        return fail(ps, GB_ERR_FORMAT, "a number expected");
    while (*end && strchr("uUlLfF", *end)) {
        if (*end == 'f' || *end == 'F')
            is_int = 0;
        end++;
    }
    ps->p = end;
    *out = mk(v, ps->mode == GB_CEXPR_SPEC ? 0 : is_int);
    return GB_OK;
}

static double fn_apply(const char *name, const double *a, int n, int *ok)
{
    *ok = 1;
    if (n == 2 && strcmp(name, "min") == 0)
        return a[0] < a[1] ? a[0] : a[1];
    if (n == 2 && strcmp(name, "max") == 0)
        return a[0] > a[1] ? a[0] : a[1];
    if (n == 2 && strcmp(name, "pow") == 0)
        return pow(a[0], a[1]);
    if (n != 1)
        return *ok = 0, 0;
    if (strcmp(name, "ceil") == 0)
        return ceil(a[0]);
    if (strcmp(name, "floor") == 0)
        return floor(a[0]);
    if (strcmp(name, "sqrt") == 0)
        return sqrt(a[0]);
    if (strcmp(name, "log2") == 0)
        return log2(a[0]);
    if (strcmp(name, "log") == 0)
        return log(a[0]);
    if (strcmp(name, "abs") == 0 || strcmp(name, "fabs") == 0)
        return fabs(a[0]);
    if (strcmp(name, "ilog2") == 0)
        return a[0] >= 1 ? floor(log2(a[0]) + 1e-9) : 0;
    if (strcmp(name, "clog2") == 0)
        return a[0] > 1 ? ceil(log2(a[0]) - 1e-9) : 0;
    return *ok = 0, 0;
}

static enum gb_status call(struct parser *ps, const char *name, struct val *out)
{
    double a[2];
    int n = 0, ok, all_int = 1;
    skip(ps);
    if (!accept(ps, ")")) {
        do {
            struct val v;
            if (n == 2)
                return fail(ps, GB_ERR_FORMAT, "too many arguments");
            if (expr(ps, &v) != GB_OK)
                return ps->st;
            a[n++] = v.v;
            all_int &= v.is_int;
        } while (accept(ps, ","));
        if (!accept(ps, ")"))
            return fail(ps, GB_ERR_FORMAT, "')' expected");
    }
    double r = fn_apply(name, a, n, &ok);
    if (!ok)
        return fail(ps, GB_ERR_FORMAT, "unknown function");
    int r_int = (strcmp(name, "min") == 0 || strcmp(name, "max") == 0 || strcmp(name, "abs") == 0)
                    ? all_int
                    : (strcmp(name, "ilog2") == 0 || strcmp(name, "clog2") == 0);
    *out = mk(r, r_int);
    return GB_OK;
}

static enum gb_status name_or_call(struct parser *ps, struct val *out)
{
    char name[128];
    size_t n = 0;
    while ((isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.') && n + 1 < sizeof name)
        name[n++] = *ps->p++;
    name[n] = '\0';
    if (accept(ps, "("))
        return call(ps, name, out);
    if (!ps->lookup)
        return fail(ps, GB_ERR_FORMAT, "unknown name");
    double v;
    int is_int = 1;
    enum gb_status st = ps->lookup(ps->ctx, name, &v, &is_int);
    if (st != GB_OK)
        return ps->st = st;
    *out = mk(v, ps->mode == GB_CEXPR_SPEC ? 0 : is_int);
    out->v = v;
    return GB_OK;
}

/* "(int)", "(float)", "(unsigned int)" ...: returns 1 and the target's
 * integer-ness when the parenthesis opens a cast. */
static int cast(struct parser *ps, int *to_int)
{
    static const char *const ints[] = {"int", "unsigned", "long", "size_t", "short", "char"};
    static const char *const reals[] = {"float", "double"};
    const char *save = ps->p;
    const char *close = strchr(ps->p, ')');
    if (!close)
        return 0;
    char buf[64];
    size_t n = (size_t)(close - ps->p);
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, ps->p, n);
    buf[n] = '\0';
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (strstr(buf, ints[i]) == buf + strspn(buf, " ")) {
            ps->p = close + 1;
            return *to_int = 1, 1;
        }
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
        if (strstr(buf, reals[i]) == buf + strspn(buf, " ")) {
            ps->p = close + 1;
            return *to_int = 0, 1;
        }
    ps->p = save;
    return 0;
}

static enum gb_status unary(struct parser *ps, struct val *out);

static enum gb_status primary(struct parser *ps, struct val *out)
{
    skip(ps);
    if (accept(ps, "(")) {
        int to_int;
        if (cast(ps, &to_int)) {
            if (unary(ps, out) != GB_OK)
                return ps->st;
            *out = mk(out->v, to_int);
            return GB_OK;
        }
        if (expr(ps, out) != GB_OK)
            return ps->st;
        return accept(ps, ")") ? GB_OK : fail(ps, GB_ERR_FORMAT, "')' expected");
    }
    if (isdigit((unsigned char)*ps->p) || *ps->p == '.')
        return number(ps, out);
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_')
        return name_or_call(ps, out);
    return fail(ps, GB_ERR_FORMAT, *ps->p ? "unexpected character" : "unexpected end");
}

static enum gb_status unary(struct parser *ps, struct val *out)
{
    if (++ps->depth > 200)
        return fail(ps, GB_ERR_FORMAT, "nested too deeply");
    enum gb_status st;
    if (accept(ps, "-")) {
        st = unary(ps, out);
        out->v = -out->v;
    } else if (accept(ps, "+")) {
        st = unary(ps, out);
    } else if (accept(ps, "!")) {
        st = unary(ps, out);
        *out = mk(out->v == 0, 1);
    } else {
        st = primary(ps, out);
    }
    ps->depth--;
    return st;
}

static enum gb_status power(struct parser *ps, struct val *out)
{
    if (unary(ps, out) != GB_OK)
        return ps->st;
    if (ps->mode == GB_CEXPR_SPEC && accept(ps, "^")) {
        struct val r;
        if (power(ps, &r) != GB_OK)
            return ps->st;
        *out = mk(pow(out->v, r.v), 0);
    }
    return GB_OK;
}

static enum gb_status divide(struct parser *ps, struct val *a, const struct val *b, int mod)
{
    if (b->v == 0)
        return fail(ps, GB_ERR_NUMERIC, "division by zero");
    int ints = a->is_int && b->is_int;
    if (mod)
        *a = mk(ints ? (double)((long long)a->v % (long long)b->v) : fmod(a->v, b->v), ints);
    else
        *a = mk(a->v / b->v, ints);
    return GB_OK;
}

static enum gb_status mul(struct parser *ps, struct val *out)
{
    if (power(ps, out) != GB_OK)
        return ps->st;
    for (;;) {
        int op = accept(ps, "*") ? '*' : accept(ps, "/") ? '/' : accept(ps, "%") ? '%' : 0;
        struct val r;
        if (!op)
            return GB_OK;
        if (power(ps, &r) != GB_OK)
            return ps->st;
        if (op == '*')
            *out = mk(out->v * r.v, out->is_int && r.is_int);
        else if (divide(ps, out, &r, op == '%') != GB_OK)
            return ps->st;
    }
}

static enum gb_status add(struct parser *ps, struct val *out)
{
    if (mul(ps, out) != GB_OK)
        return ps->st;
    for (;;) {
        int op = accept(ps, "+") ? '+' : accept(ps, "-") ? '-' : 0;
        struct val r;
        if (!op)
            return GB_OK;
        if (mul(ps, &r) != GB_OK)
            return ps->st;
        *out = mk(op == '+' ? out->v + r.v : out->v - r.v, out->is_int && r.is_int);
    }
}

static enum gb_status shift(struct parser *ps, struct val *out)
{
    if (add(ps, out) != GB_OK)
        return ps->st;
    for (;;) {
        int op = accept(ps, "<<") ? 'l' : accept(ps, ">>") ? 'r' : 0;
        struct val r;
        if (!op)
            return GB_OK;
        if (add(ps, &r) != GB_OK)
            return ps->st;
        *out = mk(op == 'l' ? out->v * pow(2, r.v) : floor(out->v / pow(2, r.v)), 1);
    }
}

static enum gb_status compare(struct parser *ps, struct val *out)
{
    if (shift(ps, out) != GB_OK)
        return ps->st;
    for (;;) {
        static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
        int k = -1;
        for (int i = 0; i < 6 && k < 0; i++)
            if (accept(ps, ops[i]))
                k = i;
        struct val r;
        if (k < 0)
            return GB_OK;
        if (shift(ps, &r) != GB_OK)
            return ps->st;
        double a = out->v, b = r.v;
        int t = k == 0 ? a <= b : k == 1 ? a >= b : k == 2 ? a == b : k == 3 ? a != b
                : k == 4 ? a < b : a > b;
        *out = mk(t, 1);
    }
}

static enum gb_status bits(struct parser *ps, struct val *out)
{
    if (compare(ps, out) != GB_OK)
        return ps->st;
    for (;;) {
        int op = accept(ps, "&") ? '&' : accept(ps, "|") ? '|'
                 : (ps->mode == GB_CEXPR_C && accept(ps, "^")) ? '^' : 0;
        struct val r;
        if (!op)
            return GB_OK;
        if (compare(ps, &r) != GB_OK)
            return ps->st;
        long long a = (long long)out->v, b = (long long)r.v;
        *out = mk((double)(op == '&' ? (a & b) : op == '|' ? (a | b) : (a ^ b)), 1);
    }
}

static enum gb_status logic(struct parser *ps, struct val *out)
{
    if (bits(ps, out) != GB_OK)
        return ps->st;
    for (;;) {
        int op = accept(ps, "&&") ? '&' : accept(ps, "||") ? '|' : 0;
        struct val r;
        if (!op)
            return GB_OK;
        if (bits(ps, &r) != GB_OK)
            return ps->st;
        *out = mk(op == '&' ? (out->v != 0 && r.v != 0) : (out->v != 0 || r.v != 0), 1);
    }
}

static enum gb_status expr(struct parser *ps, struct val *out)
{
    if (logic(ps, out) != GB_OK)
        return ps->st;
    if (!accept(ps, "?"))
        return GB_OK;
    struct val a, b;
    if (expr(ps, &a) != GB_OK)
        return ps->st;
    if (!accept(ps, ":"))
        return fail(ps, GB_ERR_FORMAT, "':' expected");
    if (expr(ps, &b) != GB_OK)
        return ps->st;
    *out = out->v != 0 ? a : b;
    return GB_OK;
}

enum gb_status gb_cexpr_eval(const char *text, enum gb_cexpr_mode mode, gb_cexpr_lookup lookup,
                             void *ctx, double *out)
{
    struct parser ps = {text, text, mode, lookup, ctx, GB_OK, 0};
    struct val v;
    if (!text)
        return gb_error_set(GB_ERR_FORMAT, "no expression");
    if (expr(&ps, &v) != GB_OK)
        return ps.st;
    skip(&ps);
    if (*ps.p)
        return fail(&ps, GB_ERR_FORMAT, "unexpected text");
    if (!isfinite(v.v))
        return gb_error_set(GB_ERR_NUMERIC, "expression '%s' is not finite", text);
    *out = v.v;
    return GB_OK;
}
