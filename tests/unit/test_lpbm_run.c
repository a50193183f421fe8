/* test_lpbm_run.c - the breakdown's driver (gpubound/lpbm_run.h) on the
 * synthetic SGEMM run of tests/data/lpbm: the benches and forms it fits,
 * the order it hands them to the caller, the spec it cannot find, a bench
 * the spec lacks, and the model file's replace guard. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gpubound/lpbm_run.h"
#include "util/stage.h"

struct seen {
    int inputs, models;
    char order[64];
};

static void on_input(void *ctx, const struct gb_lpbm_input *in)
{
    struct seen *s = ctx;
    s->inputs++;
    assert_true(in->n > 0);
    strcat(s->order, "I");
}

static void on_model(void *ctx, const struct gb_lpbm_bench_model *m)
{
    struct seen *s = ctx;
    s->models++;
    strcat(s->order, m->form == GB_LPBM_COUNTERS ? "C" : "F");
}

static struct gb_run *sgemm(void)
{
    struct gb_run *run = NULL;
    assert_int_equal(gb_run_load(GB_TEST_DATA "/lpbm/run-sgemm", &run), GB_OK);
    return run;
}

/* Both forms by default (the fixture has counters at every point), the
 * formula form first, the input handed over before its models. */
static void fits_both_forms(void **state)
{
    (void)state;
    struct gb_run *run = sgemm();
    struct seen seen = {0};
    struct gb_lpbm_fit_opts o = {.form = -1, .on_input = on_input, .on_model = on_model, .ctx = &seen};
    struct gb_lpbm_fit_result r = {0};
    assert_int_equal(gb_lpbm_fit_run(run, &o, &r), GB_OK);
    assert_non_null(r.spec);
    assert_int_equal(r.n_in, 1);
    assert_int_equal(r.n_models, 2);
    assert_string_equal(seen.order, "IFC");
    assert_string_equal(r.models[0].bench, "tiled");
    assert_int_equal(r.models[0].form, GB_LPBM_FORMULA);
    assert_int_equal(r.models[1].form, GB_LPBM_COUNTERS);
    assert_int_equal(r.models[0].fit.n, r.in[0].n);
    assert_true(r.models[0].fit.r2 > 0.999);
    assert_int_equal(r.n_unmeasured, 0);
    gb_lpbm_fit_result_release(&r);
    assert_null(r.models);

    o.form = GB_LPBM_FORMULA;
    assert_int_equal(gb_lpbm_fit_run(run, &o, &r), GB_OK);
    assert_int_equal(r.n_models, 1);
    gb_lpbm_fit_result_release(&r);
    gb_run_free(run);
}

static void names_what_it_cannot_fit(void **state)
{
    (void)state;
    struct gb_run *run = sgemm();
    struct gb_lpbm_fit_opts o = {.form = -1, .bench = "nosuch"};
    struct gb_lpbm_fit_result r = {0};
    assert_int_equal(gb_lpbm_fit_run(run, &o, &r), GB_ERR_USAGE);
    assert_non_null(r.spec);
    assert_non_null(strstr(gb_error_message(), "has no bench 'nosuch'"));
    gb_lpbm_fit_result_release(&r);

    o.bench = NULL;
    o.spec = GB_TEST_DATA "/lpbm/no-such-spec.json";
    assert_int_not_equal(gb_lpbm_fit_run(run, &o, &r), GB_OK);
    assert_null(r.spec);  /* the caller's cue to say: name the spec */
    assert_int_equal(r.n_models, 0);
    gb_lpbm_fit_result_release(&r);
    gb_run_free(run);
}

/* A model file fitted on more configurations is kept unless forced. */
static void write_keeps_a_larger_model(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb-lpbm-run-XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/%s", dir, GB_LPBM_MODEL_FILE);
    struct gb_run *run = sgemm();
    struct gb_lpbm_fit_opts o = {.form = -1};
    struct gb_lpbm_fit_result r = {0};
    struct gb_stage stage;
    assert_int_equal(gb_lpbm_fit_run(run, &o, &r), GB_OK);
    assert_int_equal(gb_stage_open(&stage, dir), GB_OK);
    assert_int_equal(gb_lpbm_fit_write(&r, run, &stage, 0), GB_OK);
    assert_int_equal(gb_stage_commit(&stage), GB_OK);
    size_t points = 0;
    assert_int_equal(gb_lpbm_model_points(path, &points), GB_OK);
    assert_int_equal(points, r.models[0].fit.n + r.models[1].fit.n);

    r.n_models = 1;  /* fewer configurations than the file's */
    assert_int_equal(gb_stage_open(&stage, dir), GB_OK);
    assert_int_equal(gb_lpbm_fit_write(&r, run, &stage, 0), GB_ERR_UNSUPPORTED);
    assert_non_null(strstr(gb_error_message(), "it is not replaced"));
    assert_int_equal(gb_lpbm_fit_write(&r, run, &stage, 1), GB_OK);
    gb_stage_abort(&stage);
    r.n_models = 2;
    gb_lpbm_fit_result_release(&r);
    gb_run_free(run);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fits_both_forms),
        cmocka_unit_test(names_what_it_cannot_fit),
        cmocka_unit_test(write_keeps_a_larger_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
