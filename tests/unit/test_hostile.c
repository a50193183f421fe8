/* test_hostile.c - the range table (src/results/validate.c) and the bound
 * on camp validate's work (issue 26); the staging of outputs is in
 * test_stage.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpubound/campprof.h"
#include "results/validate.h"

/* Integers are checked in 64 bits: 2^38 + 2048 is refused, not read as 2048. */
static void test_no_wrap(void **state)
{
    (void)state;
    char why[512];
    long long v = 0;
    json_t *o = json_pack("{s:I}", "warp_size", (json_int_t)((1LL << 38) + 2048));
    assert_int_equal(gb_json_range_int(o, "warp_size", GB_RANGE_WARP_SIZE, 0, &v, "m.json", "$.device",
                                       why, sizeof why), -1);
    assert_non_null(strstr(why, "m.json: $.device.warp_size = 274877908992: allowed integers 0 to 64"));
    json_decref(o);
    assert_int_equal(gb_text_range_int("99999999999999999999", GB_RANGE_NCU_GRID, &v, "e.csv", "line 4 column 9",
                                       why, sizeof why), -1);
    assert_non_null(strstr(why, "e.csv: line 4 column 9 = 99999999999999999999: allowed"));
    assert_int_equal(gb_text_range_int("4096", GB_RANGE_NCU_BLOCK, &v, "e.csv", "c", why, sizeof why), 0);
    assert_int_equal(v, 4096);
    /* Reals: finite and inside, integral for an integer range. */
    assert_true(gb_range_ok(GB_RANGE_TIME_NS, 1e5));
    assert_false(gb_range_ok(GB_RANGE_TIME_NS, -1));
    assert_false(gb_range_ok(GB_RANGE_TIME_NS, INFINITY));
    assert_false(gb_range_ok(GB_RANGE_SAMPLES, 2.5));
    assert_int_equal(gb_range_check("f", "x", NAN, GB_RANGE_METRIC), GB_ERR_FORMAT);
}

/* 6,000 configurations of one application: linear work and memory (it
 * was quadratic: 11 s and 0.9 GB). */
static void test_validate_scales(void **state)
{
    (void)state;
    struct gb_camp_model *m = calloc(1, sizeof *m);
    struct gb_camp_validation v;
    const size_t n = 6000;
    struct gb_camp_obs *obs = calloc(n, sizeof *obs);
    assert_non_null(m);
    assert_non_null(obs);
    assert_int_equal(gb_camp_model_load(GB_SOURCE_DIR "/data/h200/camping-2026-11-21/campprof-model.json", m),
                     GB_OK);
    for (size_t i = 0; i < n; i++) {
        obs[i].warps = (double)(1 + i % 64);
        obs[i].counts.ld[gb_camp_width_class(4)] = 2097152;
        obs[i].counts.st[gb_camp_width_class(4)] = 2097152;
        obs[i].time_ns = 60000 + 10.0 * (double)(i % 97);
    }
    clock_t t0 = clock();
    assert_int_equal(gb_camp_validate(m, obs, n, &v), GB_OK);
    double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    assert_true(s < 5.0);
    assert_true(isfinite(v.gm_best) && isfinite(v.gm_app));
    assert_int_equal(v.n_pairs_app, 1024 * (n - 1));
    free(obs);
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_wrap),
        cmocka_unit_test(test_validate_scales),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
