/* test_transpose.c - what of the transpose suite can be checked without a GPU:
 * its verification generator matches gpubound's fill, its charts name real
 * benches and axes, its default plan, and the report features its charts
 * use (optional where items, charts relative to a reference bench, and the
 * table of a chart's values), on a synthetic run. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/measure.h"
#include "gpubound/report.h"
#include "gpubound/suite.h"
#include "test_runs.h"

/* The text of a function from `start` to the first line that is "}". */
static char *function_text(const char *src, const char *start)
{
    const char *a = strstr(src, start);
    if (!a)
        return NULL;
    const char *b = strstr(a, "\n}\n");
    if (!b)
        return NULL;
    return strndup(a, (size_t)(b + 3 - a));
}

/* transpose.cu checks outputs with its own copy of gb_fill_word; it must be
 * the generator util.cu fills the inputs with, character for character. */
static void test_fill_word_is_the_same(void **state)
{
    (void)state;
    const char *util = gb_kernel_source("util.cu"), *tr = gb_kernel_source("transpose.cu");
    assert_non_null(util);
    assert_non_null(tr);
    char *f = function_text(util, "__device__ __forceinline__ unsigned int gb_fill_word(");
    assert_non_null(f);
    assert_true(strlen(f) > 200);
    if (!strstr(tr, f))
        fail_msg("gb_fill_word of transpose.cu differs from util.cu's:\n%s", f);
    free(f);
}

static int bench_has_axis(const struct gb_bench *b, const char *axis)
{
    for (int a = 0; a < b->n_axes; a++)
        if (strcmp(b->axes[a].name, axis) == 0)
            return 1;
    return 0;
}

/* Every bench a chart lists exists, and every axis its filters name is an
 * axis of one of the chart's benches (a typo would empty the chart). */
static void test_charts_name_real_things(void **state)
{
    (void)state;
    const struct gb_suite *s = gb_suite_find("transpose");
    assert_non_null(s);
    assert_true(s->n_charts >= 5);
    for (int c = 0; c < s->n_charts; c++) {
        const struct gb_chart_spec *spec = &s->charts[c];
        char list[512], where[512];
        const struct gb_bench *in_chart[16];
        int n = 0;
        snprintf(list, sizeof list, "%s", spec->benches);
        for (char *save = NULL, *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
            const struct gb_bench *bb = gb_bench_find(s, b);
            if (!bb)
                fail_msg("chart %s lists bench '%s', which the suite does not have", spec->name, b);
            in_chart[n++] = bb;
        }
        snprintf(where, sizeof where, "%s", spec->where ? spec->where : "");
        for (char *save = NULL, *w = strtok_r(where, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(w, '=');
            assert_non_null(eq);
            *eq = '\0';
            if (eq > w && eq[-1] == '?')
                eq[-1] = '\0';
            int found = 0;
            for (int k = 0; k < n; k++)
                found |= bench_has_axis(in_chart[k], w);
            if (!found)
                fail_msg("chart %s filters on axis '%s', which none of its benches has", spec->name, w);
        }
        if (spec->relative_to) {
            char ref[64];
            snprintf(ref, sizeof ref, "%.*s", (int)strcspn(spec->relative_to, ":"), spec->relative_to);
            assert_non_null(gb_bench_find(s, ref));
        }
    }
}

/* The default plan: every bench of the suite, one module per tile shape. */
static void test_default_plan(void **state)
{
    (void)state;
    const char *sel[] = {"transpose"};
    struct gb_plan plan;
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, &plan), GB_OK);
    int per_bench[16] = {0};
    const struct gb_suite *s = gb_suite_find("transpose");
    char seen[8][3][GB_OPT_LEN];
    int n_seen = 0;
    for (size_t i = 0; i < plan.n; i++) {
        struct gb_point p;
        char opts[16][GB_OPT_LEN];
        gb_plan_point(&plan.items[i], 0, &p);
        per_bench[plan.items[i].bench - s->benches]++;
        assert_int_equal(plan.items[i].bench->kernel_opts(&p, plan.items[i].bench->ctx, opts, 16), 3);
        gb_point_release(&p);
        int k;
        for (k = 0; k < n_seen; k++)
            if (!strcmp(seen[k][0], opts[0]) && !strcmp(seen[k][1], opts[1]) && !strcmp(seen[k][2], opts[2]))
                break;
        if (k == n_seen) {
            assert_true(n_seen < 8);
            memcpy(seen[n_seen++], opts, sizeof seen[0]);
        }
    }
    for (int b = 0; b < s->n_benches; b++)
        assert_true(per_bench[b] > 0);
    /* 13 sizes x 2 shapes per configuration; the slides' three tiles; the
     * copies, the driver and the naive transpose share the 32x8 module. */
    assert_int_equal(per_bench[0], 4 * 26);                  /* copy: 4 kinds */
    assert_int_equal(per_bench[1], 26);                      /* dtod */
    assert_int_equal(n_seen, 3);
    gb_plan_release(&plan);
}

/* Bad axis values are refused when the plan is built. */
static void test_bad_axes(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"tile=33x8", "not one of"}, {"elem=5", "not one of"}, {"shape=round", "not one of"},
        {"design=magic", "not one of"}, {"kind=dma", "not one of"}, {"n=0", "out of range"},
        {"n=65537", "out of range"},
    };
    const char *sel[] = {"transpose"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct gb_plan plan;
        const char *set[] = {bad[i][0]};
        assert_int_equal(gb_plan_build(sel, 1, set, 1, 0, &plan), GB_ERR_USAGE);
        if (!strstr(gb_error_message(), bad[i][1]))
            fail_msg("--set %s: '%s'", bad[i][0], gb_error_message());
    }
}

/* ---- report features on a synthetic run ---- */

static void rec(struct gb_record *r, const char *bench, const char *x, double gbs)
{
    test_record(r, "syn", bench, 1e9 / gbs);
    r->samples = 20;
    r->bytes = 1e9;
    r->bw_gbs = gbs;
    gb_record_set_axis(r, "n", x);
}

static const struct gb_chart_spec syn_charts[] = {
    /* "ref" records have no cfg axis: only the '?' lets them in. */
    {.name = "abs", .kind = GB_CHART_LINE, .benches = "a,ref", .where = "cfg?=1", .x = "n",
     .series = "bench", .y = "bw_gbs", .table = 1},
    /* Relative to the ref records whose kind is v, matched on n. */
    {.name = "rel", .kind = GB_CHART_LINE, .benches = "a,b", .x = "n", .series = "cfg",
     .series_label = "cfg {}", .y = "bw_gbs", .relative_to = "ref:kind=v", .table = 1,
     .refs = "peak=device:mem_peak_gbs;b best=bench:b"},
    {.name = "heat", .kind = GB_CHART_HEAT, .benches = "a", .row = "cfg", .col = "n", .y = "bw_gbs"},
};

static const struct gb_suite syn_suite = {"syn", "synthetic", NULL, 0, syn_charts, 3, NULL};

static char *table_csv(const struct gb_run *run, const struct gb_chart_spec *c)
{
    struct gb_table *t = NULL;
    char *buf = NULL;
    size_t len = 0;
    if (gb_report_chart_table(run, TEST_SET(&syn_suite), c, &t) != GB_OK)
        fail_msg("chart %s: %s", c->name, gb_error_message());
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(gb_table_print(t, f, GB_FORMAT_CSV, 0), GB_OK);
    fclose(f);
    gb_table_free(t);
    return buf;
}

/* Compares CSV text cell by cell with the expected CSV: numbers as numbers
 * (to 1e-12 relative), other cells as text. */
static void csv_equal(const char *got, const char *want)
{
    char *g = strdup(got), *w = strdup(want), *gs = NULL, *ws = NULL;
    char *gl = strtok_r(g, "\n", &gs), *wl = strtok_r(w, "\n", &ws);
    for (; gl && wl; gl = strtok_r(NULL, "\n", &gs), wl = strtok_r(NULL, "\n", &ws)) {
        const char *a = gl, *b = wl;
        while (1) {
            size_t la = strcspn(a, ","), lb = strcspn(b, ",");
            char ca[64], cb[64], *ea, *eb;
            snprintf(ca, sizeof ca, "%.*s", (int)la, a);
            snprintf(cb, sizeof cb, "%.*s", (int)lb, b);
            double da = strtod(ca, &ea), db = strtod(cb, &eb);
            int same = (*ca && *cb && !*ea && !*eb) ? fabs(da - db) <= 1e-12 * fabs(db)
                                                     : strcmp(ca, cb) == 0;
            if (!same)
                fail_msg("cell '%s' where '%s' was expected\ngot:\n%s\nwant:\n%s", ca, cb, got, want);
            if (!a[la] || !b[lb]) {
                if (a[la] != b[lb])
                    fail_msg("rows of different lengths\ngot:\n%s\nwant:\n%s", got, want);
                break;
            }
            a += la + 1;
            b += lb + 1;
        }
    }
    if (gl || wl)
        fail_msg("different numbers of rows\ngot:\n%s\nwant:\n%s", got, want);
    free(g);
    free(w);
}

static void test_relative_and_optional_where(void **state)
{
    (void)state;
    struct gb_record r[16];
    int n = 0;
    /* ref at n = 1K and 2K, kind v and w (w must never be used). */
    rec(&r[n], "ref", "2K", 400);
    gb_record_set_axis(&r[n++], "kind", "v");
    rec(&r[n], "ref", "1K", 200);
    gb_record_set_axis(&r[n++], "kind", "v");
    rec(&r[n], "ref", "1K", 1);
    gb_record_set_axis(&r[n++], "kind", "w");
    rec(&r[n], "a", "1K", 100);
    gb_record_set_axis(&r[n++], "cfg", "1");
    rec(&r[n], "a", "2K", 300);
    gb_record_set_axis(&r[n++], "cfg", "1");
    rec(&r[n], "a", "1K", 50);
    gb_record_set_axis(&r[n++], "cfg", "2");
    rec(&r[n++], "b", "2K", 100);        /* no cfg: its series is named by its bench */
    rec(&r[n++], "b", "4K", 100);        /* no reference at 4K: left out */
    rec(&r[n], "a", "1K", 100);          /* failed: never drawn */
    gb_record_set_axis(&r[n], "cfg", "1");
    r[n++].status = GB_REC_FAILED;
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.records = r;
    run.n_records = (size_t)n;
    run.info.has_device = 1;
    run.info.device.mem_peak_gbs = 1000;

    /* Absolute: a (cfg 1 only) and ref (no cfg, let in by '?'), both kinds at 1K. */
    char *csv = table_csv(&run, &syn_charts[0]);
    csv_equal(csv, "series,1K,2K\nref,200,400\na,100,300\n");
    free(csv);

    /* Relative: cfg 1 = 100/200, 300/400; cfg 2 = 50/200; b = 100/400. */
    csv = table_csv(&run, &syn_charts[1]);
    csv_equal(csv, "series,1K,2K\ncfg 1,0.5,0.75\ncfg 2,0.25,\nb,,0.25\n");
    free(csv);

    /* A heat grid has no series table. */
    struct gb_table *t = NULL;
    assert_int_equal(gb_report_chart_table(&run, TEST_SET(&syn_suite), &syn_charts[2], &t), GB_ERR_USAGE);
    assert_null(t);

    /* report.md carries the tables under the charts; the relative chart's
     * scripts hold its fractions, its bench reference relative (0.25), and
     * no device line. */
    char dir[] = "/tmp/gb-test-transpose-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct gb_report_result res;
    gb_report_result_init(&res);
    assert_int_equal(gb_report_charts(&run, TEST_SET(&syn_suite), NULL, dir, &res), GB_OK);
    char path[256];
    snprintf(path, sizeof path, "%s/rel.gp", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char gp[65536];
    size_t len = fread(gp, 1, sizeof gp - 1, f);
    gp[len] = '\0';
    fclose(f);
    assert_non_null(strstr(gp, "0.75"));
    assert_non_null(strstr(gp, "b best"));
    assert_null(strstr(gp, "peak"));
    gb_report_result_release(&res);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_word_is_the_same),
        cmocka_unit_test(test_charts_name_real_things),
        cmocka_unit_test(test_default_plan),
        cmocka_unit_test(test_bad_axes),
        cmocka_unit_test(test_relative_and_optional_where),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
