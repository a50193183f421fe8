/* test_compare.c - kept samples (sample_ns) and the comparison of runs
 * (models/compare/compare.c): the rank statistics against reference values, and
 * synthetic runs written with the results writer with known shifts.
 *
 * `test_compare --write DIR` writes the synthetic runs of tests/cli/compare.sh
 * into DIR instead of testing: base, rerun (0% shift), slow (+3%), fast
 * (-3%), nosamples (base without samples), extra (base with a point more),
 * lost (points failed, skipped or missing), oneslow (one point +5%). */
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
#include <unistd.h>
#include <zlib.h>

#include "gpubound/compare.h"
#include "gpubound/measure.h"
#include "gpubound/results.h"

/* ---- a seeded generator (xorshift64*, Box-Muller): the same on every machine ---- */

static uint64_t rng_state;

static double rng_uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return ((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double rng_normal(void)
{
    double u = rng_uniform(), v = rng_uniform();
    return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* ---- synthetic runs ---- */

/* The status of each point the next write_run writes, one letter per
 * point: 'o' measured, 'f' failed verification, 'e' stopped by an error,
 * 's' skipped, '-' no record; NULL: all measured. */
static const char *write_status;
/* How many points, from the first, the next write_run shifts (0: all). */
static int write_shifted;

/* A run of `points` points of suite "synth", bench "k", axis n = 0..points-1
 * (from `first`), each of `n` samples around 10 us * (1 + shift) with
 * relative noise `noise` (log-normal), quantised to 1 ns; samples kept
 * unless `no_samples`. Each seed gives its own start time (run identity). */
static void write_run(const char *dir, int first, int points, int n, double shift, double noise, int no_samples,
                      uint64_t seed)
{
    struct gb_run_info info;
    struct gb_run_writer *w;
    const char *axes[] = {"n"};
    gb_run_info_init(&info, "gpubound run synth", "13.0");
    snprintf(info.mode, sizeof info.mode, "full");
    info.has_device = 1;
    snprintf(info.device.name, sizeof info.device.name, "Synthetic GPU");
    info.device.cc_major = 9;
    info.device.mem_peak_gbs = 3000;
    snprintf(info.started_utc, sizeof info.started_utc, "2026-01-01T00:%02d:%02dZ", (int)(seed / 60 % 60),
             (int)(seed % 60));
    int n_ok = 0, n_failed = 0;
    assert_int_equal(gb_run_dir_prepare(dir), GB_OK);
    assert_int_equal(gb_run_writer_open(dir, &info, axes, 1, &w), GB_OK);
    rng_state = seed;
    for (int k = first; k < first + points; k++) {
        struct gb_record r = {0};
        char v[16];
        double *s = malloc((size_t)n * sizeof *s), *sorted = malloc((size_t)n * sizeof *s);
        snprintf(r.suite, sizeof r.suite, "synth");
        snprintf(r.bench, sizeof r.bench, "k");
        snprintf(v, sizeof v, "%d", k);
        assert_int_equal(gb_record_set_axis(&r, "n", v), GB_OK);
        for (int i = 0; i < n; i++)
            s[i] = sorted[i] = round(10000.0 * (1 + (write_shifted && k - first >= write_shifted ? 0 : shift)) *
                                     exp(noise * rng_normal()));
        struct gb_sample_stats_min { double min, med; } st;
        for (int i = 1; i < n; i++) /* insertion sort */
            for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
                double t = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = t;
            }
        st.min = sorted[0];
        st.med = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        r.status = GB_REC_OK;
        r.samples = n;
        r.converged = 1;
        r.batch = 1;
        snprintf(r.time_source, sizeof r.time_source, "cupti");
        r.time_ns.min = st.min;
        r.time_ns.median = st.med;
        r.time_ns.mean = st.med;
        r.time_ns.stddev = noise * st.med;
        r.time_ns.ci_lo = sorted[n / 2 - 3 > 0 ? n / 2 - 3 : 0];
        r.time_ns.ci_hi = sorted[n / 2 + 2 < n ? n / 2 + 2 : n - 1];
        r.bytes = r.flops = r.bw_gbs = r.gflops = NAN;
        r.batch_time_ns.min = r.batch_time_ns.median = r.batch_time_ns.mean = NAN;
        r.batch_time_ns.stddev = r.batch_time_ns.ci_lo = r.batch_time_ns.ci_hi = NAN;
        r.sm_mhz_before = r.sm_mhz_after = 1980;
        char status = write_status ? write_status[k - first] : 'o';
        if (status != 'o') {
            r.status = status == 's' ? GB_REC_SKIPPED : status == 'e' ? GB_REC_ERROR : GB_REC_FAILED;
            snprintf(r.reason, sizeof r.reason, "synthetic %c", status);
        }
        n_ok += status == 'o';
        n_failed += status != 'o' && status != '-';
        if (status == '-') {
            free(s);
            free(sorted);
            gb_record_release(&r);
            continue;
        }
        if (!no_samples && status == 'o') {
            r.sample_ns = s;
            r.n_sample_ns = n;
        } else {
            free(s);
        }
        free(sorted);
        assert_int_equal(gb_run_writer_add(w, &r), GB_OK);
        gb_record_release(&r);
    }
    info.points_ok = n_ok;
    info.points_failed = n_failed;
    info.complete = 1;
    assert_int_equal(gb_run_writer_close(w, &info), GB_OK);
}

static void make_tmp(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gb-test-compare-XXXXXX");
    assert_non_null(mkdtemp(buf));
}

static void rm_rf(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Compares the runs at two paths. */
static void compare_dirs(const char *a, const char *b, struct gb_cmp_result *out)
{
    struct gb_run *ra, *rb;
    struct gb_cmp_opts o;
    gb_cmp_opts_default(&o);
    assert_int_equal(gb_run_load(a, &ra), GB_OK);
    assert_int_equal(gb_run_load(b, &rb), GB_OK);
    const struct gb_run *pa[] = {ra}, *pb[] = {rb};
    assert_int_equal(gb_cmp_runs(pa, 1, pb, 1, &o, out), GB_OK);
    gb_run_free(ra);
    gb_run_free(rb);
}

/* ---- reference values ---- */

/* R's wilcox.test help page (Hollander & Wolfe, p. 69): x against y gives
 * W = 35, one-sided p = 0.1272, so two-sided 0.2544; the exact null
 * distribution was also enumerated independently over all C(15,5) = 3003
 * rank assignments (Python), which gives the Hodges-Lehmann ratio of the
 * logs 1.3117671370783737 and the 95% Moses interval [0.859504132231405,
 * 1.9594594594594594] (rank k = 9), 99%: [0.6956521739130436, 2.147727272727273]. */
static void test_reference_exact(void **state)
{
    (void)state;
    const double x[] = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
    const double y[] = {1.15, 0.88, 0.90, 0.74, 1.21};
    struct gb_cmp_stat s;
    assert_int_equal(gb_cmp_samples(y, 5, x, 10, 0.05, &s), GB_OK);
    assert_int_equal(s.method, GB_CMP_RANKS);
    assert_true(fabs(s.u - 35) < 1e-12);
    assert_true(fabs(s.p - 0.25441225441225446) < 1e-9);
    assert_true(fabs(s.ratio - 1.3117671370783737) < 1e-9);
    assert_true(fabs(s.lo - 0.859504132231405) < 1e-9);
    assert_true(fabs(s.hi - 1.9594594594594594) < 1e-9);
    assert_false(s.few);
    assert_int_equal(gb_cmp_samples(y, 5, x, 10, 0.01, &s), GB_OK);
    assert_true(fabs(s.lo - 0.6956521739130436) < 1e-9);
    assert_true(fabs(s.hi - 2.147727272727273) < 1e-9);
    /* n = m = 3, complete separation: p = 2 / C(6,3) = 0.1 by hand. */
    const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    assert_true(fabs(gb_cmp_exact_p(9, 3, 3) - 0.1) < 1e-12);
    assert_int_equal(gb_cmp_samples(a, 3, b, 3, 0.01, &s), GB_OK);
    assert_true(s.few); /* 0.1 > 0.01: no interval at 99% exists */
}

/* With ties: R's normal approximation with the tie and continuity
 * corrections, computed independently (Python, formula of wilcox.test):
 * U = 28, sigma = 6.0902306270706275, p = 0.11878936515563021, 95% rank
 * k = 6: [1.0, 1.3], Hodges-Lehmann 1.1. */
static void test_reference_ties(void **state)
{
    (void)state;
    const double x[] = {10, 10, 11, 12, 12, 13}, y[] = {11, 12, 12, 13, 14, 14};
    struct gb_cmp_stat s;
    assert_int_equal(gb_cmp_samples(x, 6, y, 6, 0.05, &s), GB_OK);
    assert_int_equal(s.method, GB_CMP_RANKS_NORMAL);
    assert_true(fabs(s.u - 28) < 1e-12);
    assert_true(fabs(s.p - 0.11878936515563021) < 1e-9);
    assert_true(fabs(s.ratio - 1.1) < 1e-9);
    assert_true(s.lo == 1.0); /* exactly: a tie, not a value near it */
    assert_true(fabs(s.hi - 1.3) < 1e-9);
    assert_int_equal(gb_cmp_samples(x, 0, y, 6, 0.05, &s), GB_ERR_USAGE);
    const double z[] = {1, 0};
    assert_int_equal(gb_cmp_samples(z, 2, y, 6, 0.05, &s), GB_ERR_USAGE);
}

/* ---- independent oracles ---- */

/* Six base and seven new times (nm = 42, even: the Hodges-Lehmann estimate
 * is the mean of the 21st and 22nd differences), no ties. Expected values
 * computed independently in Python: the p-value with SciPy 1.17.1
 * (scipy.stats.mannwhitneyu(new, base, method="exact")), the estimate as
 * the median of the 42 sorted differences of logs (NumPy), and the Moses
 * interval as R's wilcox.test(conf.int = TRUE) takes it: the rank k =
 * qwilcox(alpha / 2, n, m) from the exact null distribution, enumerated
 * over all C(13, 6) = 1716 rank assignments, and the differences k and
 * nm + 1 - k (k = 7 at 95%, 4 at 99%). */
static void test_oracle_exact_even(void **state)
{
    (void)state;
    const double x[] = {1012, 998, 1005, 1021, 990, 1009};
    const double y[] = {1040, 1029, 1051, 1018, 1036, 1062, 1025};
    struct gb_cmp_stat s;
    assert_int_equal(gb_cmp_samples(x, 6, y, 7, 0.05, &s), GB_OK);
    assert_int_equal(s.method, GB_CMP_RANKS);
    assert_true(fabs(s.u - 41) < 1e-12);
    assert_true(fabs(s.p - 0.002331002331002331) < 1e-12);
    assert_true(fabs(s.ratio - 1.0300530051694801) < 1e-12);
    assert_true(fabs(s.lo - 1.0129353233830842) < 1e-12);
    assert_true(fabs(s.hi - 1.0505050505050504) < 1e-12);
    assert_int_equal(gb_cmp_samples(x, 6, y, 7, 0.01, &s), GB_OK);
    assert_true(fabs(s.ratio - 1.0300530051694801) < 1e-12);
    assert_true(fabs(s.lo - 1.0078354554358473) < 1e-12);
    assert_true(fabs(s.hi - 1.0567164179104478) < 1e-12);
    assert_false(s.few);
}

/* 55 and 52 samples, no ties: the normal approximation with continuity
 * correction. SciPy 1.17.1: scipy.stats.mannwhitneyu(new, base,
 * method="asymptotic", use_continuity=True) gives U = 2233 and p =
 * 5.6748483689864797e-07; the median of the 2860 differences of logs
 * (NumPy) gives the ratio 1.0311132849469702. */
static void test_oracle_normal(void **state)
{
    (void)state;
    double x[55], y[52];
    for (int i = 0; i < 55; i++)
        x[i] = 1000 + 1.7 * i + 0.01;
    for (int j = 0; j < 52; j++)
        y[j] = 1030 + 1.9 * j;
    struct gb_cmp_stat s;
    assert_int_equal(gb_cmp_samples(x, 55, y, 52, 0.01, &s), GB_OK);
    assert_int_equal(s.method, GB_CMP_RANKS_NORMAL);
    assert_true(fabs(s.u - 2233) < 1e-9);
    assert_true(fabs(s.p / 5.6748483689864797e-07 - 1) < 1e-6);
    assert_true(fabs(s.ratio - 1.0311132849469702) < 1e-12);
    assert_true(s.lo < s.ratio && s.ratio < s.hi && s.lo > 1);
}

/* A measured record of suite s, bench b, axis n = k, without samples. */
static void mem_rec(struct gb_record *r, int k, int status, double med, double lo, double hi)
{
    char v[16];
    memset(r, 0, sizeof *r);
    snprintf(r->suite, sizeof r->suite, "s");
    snprintf(r->bench, sizeof r->bench, "b");
    snprintf(v, sizeof v, "%d", k);
    assert_int_equal(gb_record_set_axis(r, "n", v), GB_OK);
    r->status = status;
    r->converged = 1;
    r->time_ns.min = lo;
    r->time_ns.median = med;
    r->time_ns.ci_lo = lo;
    r->time_ns.ci_hi = hi;
}

static void mem_release(struct gb_run *run)
{
    for (size_t i = 0; i < run->n_records; i++)
        gb_record_release(&run->records[i]);
}

static void compare_mem(struct gb_run *a, struct gb_run *b, struct gb_cmp_result *out)
{
    struct gb_cmp_opts o;
    gb_cmp_opts_default(&o);
    const struct gb_run *pa[] = {a}, *pb[] = {b};
    assert_int_equal(gb_cmp_runs(pa, 1, pb, 1, &o, out), GB_OK);
}

/* The summary method (no samples): the log-scale standard error is each
 * side's 95% interval over 2 x 1.959964, the interval at alpha 0.01 uses
 * 2.575829. Base 100 [98, 102], new 110 [108, 112]; by hand (Python,
 * scipy.stats.norm): se = 0.013792364419913529, [1.0616065812295796,
 * 1.1397819318325511], p = 4.8343114827681843e-12. Then the verdict
 * follows the interval: 1.05 with intervals of +-10% includes 1 and is
 * no change although beyond the 2% threshold. */
static void test_summary_se_and_verdict(void **state)
{
    (void)state;
    struct gb_record rb[2], rn[2];
    struct gb_run a = {.records = rb, .n_records = 2}, b = {.records = rn, .n_records = 2};
    struct gb_cmp_result r;
    mem_rec(&rb[0], 0, GB_REC_OK, 100, 98, 102);
    mem_rec(&rn[0], 0, GB_REC_OK, 110, 108, 112);
    mem_rec(&rb[1], 1, GB_REC_OK, 100, 90, 110);
    mem_rec(&rn[1], 1, GB_REC_OK, 105, 95, 115);
    compare_mem(&a, &b, &r);
    assert_int_equal(r.n_points, 2);
    const struct gb_cmp_point *p = &r.points[0]; /* the larger effect first */
    assert_int_equal(p->s.method, GB_CMP_SUMMARY);
    assert_true(fabs(p->s.ratio - 1.1) < 1e-12);
    assert_true(fabs(p->s.lo - 1.0616065812295796) < 1e-12);
    assert_true(fabs(p->s.hi - 1.1397819318325511) < 1e-12);
    assert_true(fabs(p->s.p / 4.8343114827681843e-12 - 1) < 1e-6);
    assert_int_equal(p->verdict, GB_CMP_SLOWER);
    p = &r.points[1];
    assert_true(fabs(p->s.ratio - 1.05) < 1e-12 && p->s.lo < 1 && p->s.hi > 1);
    assert_int_equal(p->verdict, GB_CMP_SAME);
    assert_int_equal(r.n_slower, 1);
    assert_int_equal(r.n_same, 1);
    gb_cmp_result_release(&r);
    mem_release(&a);
    mem_release(&b);
}

/* The geometric mean of the ratios 1.1, 1.2 and 1.05 with its 99% Student
 * t interval over the log ratios (scipy.stats.t.ppf(0.995, 2), by hand in
 * Python): 1.11494747954535 [0.75609644593186032, 1.6441128494030217]. */
static void test_geomean_interval(void **state)
{
    (void)state;
    const double ratio[] = {1.1, 1.2, 1.05};
    struct gb_record rb[3], rn[3];
    struct gb_run a = {.records = rb, .n_records = 3}, b = {.records = rn, .n_records = 3};
    struct gb_cmp_result r;
    for (int k = 0; k < 3; k++) {
        mem_rec(&rb[k], k, GB_REC_OK, 1000, 999, 1001);
        mem_rec(&rn[k], k, GB_REC_OK, 1000 * ratio[k], 1000 * ratio[k] - 1, 1000 * ratio[k] + 1);
    }
    compare_mem(&a, &b, &r);
    assert_true(fabs(r.geomean - 1.11494747954535) < 1e-12);
    assert_true(fabs(r.geomean_lo - 0.75609644593186032) < 1e-12);
    assert_true(fabs(r.geomean_hi - 1.6441128494030217) < 1e-12);
    gb_cmp_result_release(&r);
    mem_release(&a);
    mem_release(&b);
}

/* The gate's count: base points failed, skipped (or stopped by an error)
 * or missing in NEW are base-only with why; a point only NEW failed is
 * not counted. */
static void test_lost_points_counted(void **state)
{
    (void)state;
    struct gb_record rb[4], rn[4];
    struct gb_run a = {.records = rb, .n_records = 4}, b = {.records = rn, .n_records = 4};
    struct gb_cmp_result r;
    for (int k = 0; k < 4; k++)
        mem_rec(&rb[k], k, GB_REC_OK, 1000, 999, 1001);
    mem_rec(&rn[0], 0, GB_REC_OK, 1000, 999, 1001);
    mem_rec(&rn[1], 1, GB_REC_FAILED, NAN, NAN, NAN);
    mem_rec(&rn[2], 2, GB_REC_SKIPPED, NAN, NAN, NAN);
    mem_rec(&rn[3], 5, GB_REC_ERROR, NAN, NAN, NAN); /* base has no point 5 */
    compare_mem(&a, &b, &r);
    assert_int_equal(r.n_points, 1);
    assert_int_equal(r.n_only_base, 3);
    assert_int_equal(r.n_lost[GB_CMP_LOST_FAILED], 1);
    assert_int_equal(r.n_lost[GB_CMP_LOST_SKIPPED], 1);
    assert_int_equal(r.n_lost[GB_CMP_LOST_MISSING], 1);
    assert_int_equal(r.only_base_why[0], GB_CMP_LOST_FAILED); /* n=1, n=2, n=3 in key order */
    assert_int_equal(r.only_base_why[1], GB_CMP_LOST_SKIPPED);
    assert_int_equal(r.only_base_why[2], GB_CMP_LOST_MISSING);
    assert_int_equal(r.n_only_new, 0);
    gb_cmp_result_release(&r);
    /* An error in NEW is a failure, not a skip. */
    rn[2].status = GB_REC_ERROR;
    compare_mem(&a, &b, &r);
    assert_int_equal(r.n_lost[GB_CMP_LOST_FAILED], 2);
    gb_cmp_result_release(&r);
    mem_release(&a);
    mem_release(&b);
}

/* ---- synthetic runs ---- */

static void test_no_shift(void **state)
{
    (void)state;
    char dir[64], a[128], b[128];
    struct gb_cmp_result r;
    make_tmp(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/base", dir);
    snprintf(b, sizeof b, "%s/rerun", dir);
    write_run(a, 0, 100, 20, 0.0, 0.005, 0, 1);
    write_run(b, 0, 100, 20, 0.0, 0.005, 0, 2);
    compare_dirs(a, b, &r);
    assert_int_equal(r.n_points, 100);
    assert_true(r.n_same >= 99); /* 100 seeded trials */
    assert_true(r.geomean_lo <= 1.0 && r.geomean_hi >= 1.0);
    assert_true(r.points[0].s.method != GB_CMP_SUMMARY); /* ties of 1-ns steps: exact or normal */
    assert_int_equal(r.points[0].n_base, 20);
    gb_cmp_result_release(&r);
    rm_rf(dir);
}

static void test_shift_detected(void **state)
{
    (void)state;
    char dir[64], a[128], b[128];
    struct gb_cmp_result r;
    make_tmp(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/base", dir);
    snprintf(b, sizeof b, "%s/slow", dir);
    write_run(a, 0, 100, 20, 0.0, 0.005, 0, 1);
    write_run(b, 0, 100, 20, 0.03, 0.005, 0, 3);
    compare_dirs(a, b, &r);
    assert_int_equal(r.n_slower, 100);
    for (size_t i = 0; i < r.n_points; i++) {
        assert_true(r.points[i].s.lo > 1.0);
        assert_true(r.points[i].s.lo < 1.03 && r.points[i].s.hi > 1.03); /* the interval covers the shift */
    }
    assert_true(r.geomean > 1.025 && r.geomean < 1.035);
    gb_cmp_result_release(&r);
    compare_dirs(b, a, &r); /* the other way round: faster */
    assert_int_equal(r.n_faster, 100);
    gb_cmp_result_release(&r);
    rm_rf(dir);
}

static void test_one_sided_and_no_samples(void **state)
{
    (void)state;
    char dir[64], a[128], b[128], c[128];
    struct gb_cmp_result r;
    make_tmp(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/base", dir);
    snprintf(b, sizeof b, "%s/shifted", dir);
    snprintf(c, sizeof c, "%s/nosamples", dir);
    write_run(a, 0, 5, 20, 0.0, 0.005, 0, 1);      /* points 0..4 */
    write_run(b, 2, 5, 20, 0.0, 0.005, 0, 2);      /* points 2..6 */
    write_run(c, 0, 5, 20, 0.0, 0.005, 1, 4);      /* no samples kept */
    compare_dirs(a, b, &r);
    assert_int_equal(r.n_points, 3);
    assert_int_equal(r.n_only_base, 2);
    assert_int_equal(r.n_only_new, 2);
    assert_non_null(strstr(r.only_base[0], "n=0"));
    assert_non_null(strstr(r.only_new[1], "n=6"));
    gb_cmp_result_release(&r);
    compare_dirs(c, a, &r);
    assert_int_equal(r.n_points, 5);
    assert_int_equal(r.n_summary, 5);
    assert_int_equal(r.points[0].s.method, GB_CMP_SUMMARY);
    assert_int_equal(r.n_same, 5);
    gb_cmp_result_release(&r);
    rm_rf(dir);
}

/* Writes one record of five samples in two bands with `median` to `path`,
 * loads the run in `dir` and counts the warnings that name its median. */
static int median_warnings(const char *path, const char *dir, double median)
{
    struct gb_run *run;
    int n = 0;
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "[\n{\"suite\":\"s\",\"bench\":\"b\",\"axes\":{},\"status\":\"ok\",\"samples\":5,"
               "\"time_ns\":{\"min\":2592,\"median\":%.17g,\"mean\":2656,\"stddev\":87,\"ci_lo\":2592,"
               "\"ci_hi\":2752},\"sample_ns\":[2592,2752,2592,2752,2592]}\n]\n", median);
    fclose(f);
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    for (size_t i = 0; i < run->n_warnings; i++)
        n += strstr(run->warnings[i], "time_ns.median") != NULL;
    gb_run_free(run);
    return n;
}

/* Samples go through results.json and results.json.gz and come back; a bad
 * one is refused with the field named. */
static void test_samples_round_trip(void **state)
{
    (void)state;
    char dir[64], a[128], path[256], gzpath[256], buf[1 << 16];
    struct gb_run *run;
    make_tmp(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/base", dir);
    write_run(a, 0, 3, 25, 0.0, 0.01, 0, 7);
    assert_int_equal(gb_run_load(a, &run), GB_OK);
    assert_int_equal(run->n_records, 3);
    assert_int_equal(run->records[0].n_sample_ns, 25);
    assert_int_equal(run->n_warnings_total, 0); /* the medians follow from the samples */
    gb_run_free(run);
    /* The same records gzip-compressed. */
    snprintf(path, sizeof path, "%s/results.json", a);
    snprintf(gzpath, sizeof gzpath, "%s/results.json.gz", a);
    FILE *f = fopen(path, "rb");
    gzFile g = gzopen(gzpath, "wb9");
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        assert_int_equal(gzwrite(g, buf, (unsigned)got), (int)got);
    fclose(f);
    gzclose(g);
    unlink(path);
    assert_int_equal(gb_run_load(a, &run), GB_OK);
    assert_int_equal(run->records[2].n_sample_ns, 25);
    gb_run_free(run);
    /* A negative sample, then one sample too few. */
    unlink(gzpath);
    f = fopen(path, "w");
    fputs("[\n{\"suite\":\"s\",\"bench\":\"b\",\"axes\":{},\"status\":\"ok\",\"samples\":2,\"time_ns\":"
          "{\"min\":1,\"median\":1.5,\"mean\":1.5,\"stddev\":0,\"ci_lo\":1,\"ci_hi\":2},\"sample_ns\":[1,-2]}\n]\n", f);
    fclose(f);
    assert_int_equal(gb_run_load(a, &run), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "sample_ns[1]"));
    f = fopen(path, "w");
    fputs("[\n{\"suite\":\"s\",\"bench\":\"b\",\"axes\":{},\"status\":\"ok\",\"samples\":3,\"time_ns\":"
          "{\"min\":1,\"median\":1.5,\"mean\":1.5,\"stddev\":0,\"ci_lo\":1,\"ci_hi\":2},\"sample_ns\":[1,2]}\n]\n", f);
    fclose(f);
    assert_int_equal(gb_run_load(a, &run), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "samples = 3"));
    /* Two bands: a median that is their Harrell-Davis estimate loads
     * without a word, as does the middle sample (older runs); one that
     * is neither is named. */
    double bands[5] = {2592, 2592, 2592, 2752, 2752};
    double hd = gb_stats_hd_median(bands, 5);
    assert_true(hd > 2592 && hd < 2752);
    assert_int_equal(median_warnings(path, a, hd), 0);
    assert_int_equal(median_warnings(path, a, 2592), 0); /* the middle sample: runs from before */
    assert_int_equal(median_warnings(path, a, 2700), 1);
    rm_rf(dir);
}

/* The runs of tests/cli/compare.sh. */
static int write_cli_runs(const char *out)
{
    char p[4200];
    /* lost: base's six points, the first measured, then two failed, one
     * skipped, one stopped by an error and one absent. */
    snprintf(p, sizeof p, "%s/lost", out);
    write_status = "offse-";
    write_run(p, 0, 6, 20, 0.0, 0.005, 0, 8);
    write_status = NULL;
    /* oneslow: the first point 5% slower, the others as base. */
    snprintf(p, sizeof p, "%s/oneslow", out);
    write_shifted = 1;
    write_run(p, 0, 6, 20, 0.05, 0.005, 0, 9);
    write_shifted = 0;
    static const struct { const char *name; int first, points; double shift; int no_samples; uint64_t seed; } runs[] = {
        {"base", 0, 6, 0.0, 0, 1}, {"rerun", 0, 6, 0.0, 0, 2}, {"slow", 0, 6, 0.03, 0, 3},
        {"fast", 0, 6, -0.03, 0, 5}, {"nosamples", 0, 6, 0.0, 1, 4}, {"extra", 0, 7, 0.0, 0, 6}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", out, runs[i].name);
        write_run(p, runs[i].first, runs[i].points, 20, runs[i].shift, 0.005, runs[i].no_samples, runs[i].seed);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0)
        return write_cli_runs(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_exact),
        cmocka_unit_test(test_reference_ties),
        cmocka_unit_test(test_oracle_exact_even),
        cmocka_unit_test(test_oracle_normal),
        cmocka_unit_test(test_summary_se_and_verdict),
        cmocka_unit_test(test_geomean_interval),
        cmocka_unit_test(test_lost_points_counted),
        cmocka_unit_test(test_no_shift),
        cmocka_unit_test(test_shift_detected),
        cmocka_unit_test(test_one_sided_and_no_samples),
        cmocka_unit_test(test_samples_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
