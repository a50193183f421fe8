/* The examples (examples/<name>/spec.json): every configuration of the full
 * sweep compiles for sm_90 through NVRTC with its axes as -D defines, as
 * `gpubound run` compiles them; the quick sweep for sm_75, sm_80 and sm_100
 * too (GB_EXAMPLES_ALL_ARCHS=1: every configuration for all four). Both the
 * bench's kernel and its reference kernel are in every cubin. The number of
 * planned configurations per bench (after the restrictions) is the one
 * examples/README.md states.
 *
 * The spec loader is not used: this test reads the specs with jansson and
 * evaluates the restrictions with a small evaluator of its own (integers,
 * + - * /, comparisons, && ||, parentheses), enough for the examples. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "gpubound/gpu.h"

#define MAX_AXES 8
#define MAX_VALUES 64

struct axis {
    const char *name;
    long v[MAX_VALUES];
    int n;
};

/* ---- the restriction evaluator ---- */

struct expr {
    const char *s;
    const struct axis *axes;
    const long *val;   /* the current value of each axis */
    int n_axes, bad;
};

static double ex_or(struct expr *e);

static void ex_space(struct expr *e)
{
    while (isspace((unsigned char)*e->s))
        e->s++;
}

static double ex_atom(struct expr *e)
{
    ex_space(e);
    if (*e->s == '(') {
        e->s++;
        double v = ex_or(e);
        ex_space(e);
        if (*e->s++ != ')')
            e->bad = 1;
        return v;
    }
    if (*e->s == '-') {
        e->s++;
        return -ex_atom(e);
    }
    if (isdigit((unsigned char)*e->s)) {
        char *end;
        double v = strtod(e->s, &end);
        e->s = end;
        return v;
    }
    const char *start = e->s;
    while (isalnum((unsigned char)*e->s) || *e->s == '_')
        e->s++;
    for (int i = 0; i < e->n_axes; i++)
        if (strlen(e->axes[i].name) == (size_t)(e->s - start) &&
            strncmp(e->axes[i].name, start, (size_t)(e->s - start)) == 0)
            return (double)e->val[i];
    e->bad = 1;
    return 0;
}

static double ex_mul(struct expr *e)
{
    double v = ex_atom(e);
    for (;;) {
        ex_space(e);
        if (*e->s == '*') {
            e->s++;
            v *= ex_atom(e);
        } else if (*e->s == '/') {
            e->s++;
            v /= ex_atom(e);
        } else {
            return v;
        }
    }
}

static double ex_add(struct expr *e)
{
    double v = ex_mul(e);
    for (;;) {
        ex_space(e);
        if (*e->s == '+') {
            e->s++;
            v += ex_mul(e);
        } else if (*e->s == '-') {
            e->s++;
            v -= ex_mul(e);
        } else {
            return v;
        }
    }
}

static double ex_cmp(struct expr *e)
{
    double v = ex_add(e);
    ex_space(e);
    static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    for (int i = 0; i < 6; i++) {
        size_t l = strlen(ops[i]);
        if (strncmp(e->s, ops[i], l) == 0) {
            e->s += l;
            double w = ex_add(e);
            switch (i) {
            case 0: return v <= w;
            case 1: return v >= w;
            case 2: return v == w;
            case 3: return v != w;
            case 4: return v < w;
            default: return v > w;
            }
        }
    }
    return v;
}

static double ex_and(struct expr *e)
{
    double v = ex_cmp(e);
    for (;;) {
        ex_space(e);
        if (strncmp(e->s, "&&", 2) != 0)
            return v;
        e->s += 2;
        double w = ex_cmp(e);
        v = v != 0 && w != 0;
    }
}

static double ex_or(struct expr *e)
{
    double v = ex_and(e);
    for (;;) {
        ex_space(e);
        if (strncmp(e->s, "||", 2) != 0)
            return v;
        e->s += 2;
        double w = ex_and(e);
        v = v != 0 || w != 0;
    }
}

static int restriction_holds(const char *text, const struct axis *axes, int n_axes, const long *val)
{
    struct expr e = {text, axes, val, n_axes, 0};
    double v = ex_or(&e);
    ex_space(&e);
    if (e.bad || *e.s)
        fail_msg("restriction \"%s\": the test's evaluator cannot read it", text);
    return v != 0;
}

/* ---- the specs ---- */

/* An axis's values: a list or gpubound's range syntax lo:hi[:step|:*factor]. */
static void axis_values(const json_t *j, struct axis *a)
{
    a->n = 0;
    if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v) {
            assert_true(json_is_integer(v) && a->n < MAX_VALUES);
            a->v[a->n++] = (long)json_integer_value(v);
        }
        return;
    }
    assert_true(json_is_string(j));
    long lo, hi, step = 1;
    char mul = 0;
    const char *s = json_string_value(j);
    int k = sscanf(s, "%ld:%ld:%c%ld", &lo, &hi, &mul, &step);
    if (k == 4 && mul == '*') {
        for (long x = lo; x <= hi; x *= step)
            a->v[a->n++] = x;
        return;
    }
    k = sscanf(s, "%ld:%ld:%ld", &lo, &hi, &step);
    if (k < 2)
        fail_msg("axis %s: cannot read the range \"%s\"", a->name, s);
    for (long x = lo; x <= hi; x += step) {
        assert_true(a->n < MAX_VALUES);
        a->v[a->n++] = x;
    }
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)size + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)size, f), (size_t)size);
    s[size] = '\0';
    fclose(f);
    return s;
}

static int has_symbol(const char *cubin, size_t size, const char *name)
{
    size_t l = strlen(name);
    for (size_t i = 0; i + l < size; i++)
        if (memcmp(cubin + i, name, l) == 0 && cubin[i + l] == '\0' && (i == 0 || cubin[i - 1] == '\0'))
            return 1;
    return 0;
}

static void compile_point(const char *file, const char *src, const char *arch, const struct axis *axes,
                          int n_axes, const long *val, const char *kernel, const char *reference)
{
    char opts[MAX_AXES][64];
    const char *optp[MAX_AXES];
    char *cubin = NULL;
    size_t size = 0;
    for (int i = 0; i < n_axes; i++) {
        snprintf(opts[i], sizeof opts[i], "-D%s=%ld", axes[i].name, val[i]);
        optp[i] = opts[i];
    }
    if (gb_nvrtc_compile(file, src, arch, optp, n_axes, &cubin, &size) != GB_OK)
        fail_msg("%s", gb_error_message());
    if (!has_symbol(cubin, size, kernel) || !has_symbol(cubin, size, reference))
        fail_msg("%s for %s (%s ...): the cubin lacks %s or %s", file, arch, opts[0], kernel, reference);
    free(cubin);
}

/* Every configuration of one bench (quick: the quick values); returns how
 * many there are after the restrictions. */
static int sweep_bench(const char *file, const char *src, json_t *bench, int quick, const char *const *archs,
                       int n_archs)
{
    struct axis axes[MAX_AXES];
    int n_axes = 0, points = 0;
    size_t i;
    json_t *a;
    const char *kernel = json_string_value(json_object_get(bench, "kernel"));
    const char *reference = json_string_value(json_object_get(json_object_get(bench, "reference"), "kernel"));
    json_t *restr = json_object_get(bench, "restrictions");
    assert_non_null(kernel);
    assert_non_null(reference);
    json_array_foreach(json_object_get(bench, "axes"), i, a) {
        assert_true(n_axes < MAX_AXES);
        axes[n_axes].name = json_string_value(json_object_get(a, "name"));
        axis_values(json_object_get(a, quick ? "quick" : "values"), &axes[n_axes]);
        n_axes++;
    }
    int idx[MAX_AXES] = {0};
    long val[MAX_AXES];
    for (;;) {
        for (int k = 0; k < n_axes; k++)
            val[k] = axes[k].v[idx[k]];
        int ok = 1;
        json_t *r;
        size_t ri;
        json_array_foreach(restr, ri, r) ok = ok && restriction_holds(json_string_value(r), axes, n_axes, val);
        if (ok) {
            points++;
            for (int k = 0; k < n_archs; k++)
                compile_point(file, src, archs[k], axes, n_axes, val, kernel, reference);
        }
        int k = n_axes - 1;
        while (k >= 0 && ++idx[k] == axes[k].n)
            idx[k--] = 0;
        if (k < 0)
            break;
    }
    return points;
}

static void test_examples_compile(void **state)
{
    (void)state;
    static const struct {
        const char *dir, *bench;
        int full, quick;   /* configurations planned, as examples/README.md says */
    } expect[] = {
        {"sgemm", "tiled", 64, 3},   {"sgemm", "regblock", 48, 2}, {"reduction", "sum", 60, 2},
        {"fft", "radix2", 37, 2},    {"stencil", "stencil", 60, 2},
    };
    static const char *const full_archs[] = {"sm_90", "sm_75", "sm_80", "sm_100"};
    const int all = getenv("GB_EXAMPLES_ALL_ARCHS") != NULL;
    int checked = 0;
    for (size_t e = 0; e < sizeof expect / sizeof expect[0]; e++) {
        char path[512];
        json_error_t err;
        snprintf(path, sizeof path, "%s/examples/%s/spec.json", GB_SOURCE_DIR, expect[e].dir);
        json_t *spec = json_load_file(path, 0, &err);
        if (!spec)
            fail_msg("%s:%d: %s", path, err.line, err.text);
        const char *source = json_string_value(json_object_get(spec, "source"));
        assert_non_null(source);
        snprintf(path, sizeof path, "%s/examples/%s/%s", GB_SOURCE_DIR, expect[e].dir, source);
        char *src = read_text(path);
        size_t i;
        json_t *bench;
        json_array_foreach(json_object_get(spec, "benches"), i, bench) {
            if (strcmp(json_string_value(json_object_get(bench, "name")), expect[e].bench) != 0)
                continue;
            int full = sweep_bench(path, src, bench, 0, full_archs, all ? 4 : 1);
            int quick = sweep_bench(path, src, bench, 1, full_archs, 4);
            if (full != expect[e].full || quick != expect[e].quick)
                fail_msg("%s/%s plans %d configurations (quick %d), README.md says %d (%d)", expect[e].dir,
                         expect[e].bench, full, quick, expect[e].full, expect[e].quick);
            checked++;
        }
        free(src);
        json_decref(spec);
    }
    assert_int_equal(checked, (int)(sizeof expect / sizeof expect[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples_compile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
