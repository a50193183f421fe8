/* Fleet runs without GPUs: the outlier statistics on made-up fleets (an
 * outlier that must be flagged, noise that must not be), and the gather
 * of made-up members into one run directory, read back. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpubound/fleet.h"
#include "gpubound/fleet_records.h"
#include "gpubound/fleet_run.h"
#include "gpubound/fleet_tables.h"

/* n cells from medians and relative interval half widths. */
static void cells_from(struct gb_fleet_cell *c, const double *median, const double *rel, size_t n)
{
    memset(c, 0, n * sizeof *c);
    for (size_t i = 0; i < n; i++) {
        c[i].present = 1;
        c[i].median = median[i];
        c[i].lo = median[i] * (1 - rel[i]);
        c[i].hi = median[i] * (1 + rel[i]);
    }
}

static int count_flags(const struct gb_fleet_cell *c, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += c[i].flag != 0;
    return k;
}

/* Eight GPUs within 1% of each other, one 8% slow with a tight interval. */
static void test_slow_outlier_flagged(void **state)
{
    (void)state;
    const double med[] = {100.0, 99.6, 100.3, 100.1, 99.8, 108.0, 100.5, 99.9};
    const double rel[] = {0.003, 0.003, 0.003, 0.003, 0.003, 0.003, 0.003, 0.003};
    struct gb_fleet_cell c[8];
    double m, sd;
    cells_from(c, med, rel, 8);
    assert_int_equal(gb_fleet_point_stats(c, 8, &m, &sd), GB_OK);
    assert_true(fabs(m - 100.05) < 1e-9); /* median of 8: (100.0 + 100.1) / 2 */
    assert_int_equal(c[5].flag, 1);
    assert_true(c[5].z > GB_FLEET_Z);
    assert_true(fabs(c[5].ratio - 108.0 / 100.05) < 1e-12);
    assert_true(c[5].ratio_lo < c[5].ratio && c[5].ratio < c[5].ratio_hi);
    assert_int_equal(count_flags(c, 8), 1);
}

/* The same GPU 8% fast is a fast outlier. */
static void test_fast_outlier_flagged(void **state)
{
    (void)state;
    const double med[] = {100.0, 99.6, 100.3, 100.1, 99.8, 92.0, 100.5, 99.9};
    const double rel[] = {0.003, 0.003, 0.003, 0.003, 0.003, 0.003, 0.003, 0.003};
    struct gb_fleet_cell c[8];
    double m, sd;
    cells_from(c, med, rel, 8);
    assert_int_equal(gb_fleet_point_stats(c, 8, &m, &sd), GB_OK);
    assert_int_equal(c[5].flag, -1);
    assert_int_equal(count_flags(c, 8), 1);
}

/* Spread that is the fleet's own (tight intervals, so each GPU differs
 * from M beyond its interval) is not flagged: the robust threshold holds. */
static void test_noise_not_flagged(void **state)
{
    (void)state;
    const double med[] = {99.0, 99.5, 100.0, 100.2, 100.4, 100.8, 101.0, 99.8, 101.3, 98.8};
    const double rel[] = {0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001};
    struct gb_fleet_cell c[10];
    double m, sd;
    cells_from(c, med, rel, 10);
    assert_int_equal(gb_fleet_point_stats(c, 10, &m, &sd), GB_OK);
    int outside = 0;
    for (int i = 0; i < 10; i++)
        outside += m < c[i].lo || m > c[i].hi;
    assert_true(outside >= 8); /* the interval test alone would flag them */
    assert_int_equal(count_flags(c, 10), 0);
}

/* A large difference inside the GPU's own (wide) interval is noise of its
 * measurement, not an outlier. */
static void test_wide_interval_not_flagged(void **state)
{
    (void)state;
    const double med[] = {100.0, 99.6, 100.3, 100.1, 99.8, 108.0, 100.5, 99.9};
    const double rel[] = {0.003, 0.003, 0.003, 0.003, 0.003, 0.10, 0.003, 0.003};
    struct gb_fleet_cell c[8];
    double m, sd;
    cells_from(c, med, rel, 8);
    assert_int_equal(gb_fleet_point_stats(c, 8, &m, &sd), GB_OK);
    assert_true(c[5].z > GB_FLEET_Z); /* the robust test alone would flag it */
    assert_int_equal(count_flags(c, 8), 0);
}

/* Hand-computed modified z-scores. Five GPUs 100, 101, 99, 102 and X with
 * tight intervals: the fleet median is 101, the absolute deviations of the
 * first four are 1, 0, 2, 1, so with X = 106 (deviation 5) the MAD is the
 * middle of 0, 1, 1, 2, 5 = 1 and the robust sd 1.4826 x 1 = 1.4826:
 * z = 5 / 1.4826 = 3.3725 <= 3.5, not flagged (an unscaled MAD would give
 * z = 5 and flag it). With X = 107 (deviation 6) z = 6 / 1.4826 = 4.0469:
 * flagged slow. */
static void test_mad_scaled_by_hand(void **state)
{
    (void)state;
    double med[] = {100, 101, 99, 102, 106};
    const double rel[] = {0.001, 0.001, 0.001, 0.001, 0.001};
    struct gb_fleet_cell c[5];
    double m, sd;
    cells_from(c, med, rel, 5);
    assert_int_equal(gb_fleet_point_stats(c, 5, &m, &sd), GB_OK);
    assert_true(m == 101);
    assert_true(fabs(sd - 1.4826) < 1e-12);
    assert_true(fabs(c[4].z - 5 / 1.4826) < 1e-12);
    assert_true(fabs(c[2].z + 2 / 1.4826) < 1e-12);
    assert_int_equal(count_flags(c, 5), 0);
    med[4] = 107;
    cells_from(c, med, rel, 5);
    assert_int_equal(gb_fleet_point_stats(c, 5, &m, &sd), GB_OK);
    assert_true(fabs(c[4].z - 6 / 1.4826) < 1e-12);
    assert_int_equal(c[4].flag, 1);
    assert_int_equal(count_flags(c, 5), 1);
}

/* The fewest members that can name an outlier: three. 100, 100.5 and 130:
 * median 100.5, deviations 0.5, 0 and 29.5, MAD 0.5, robust sd 0.7413,
 * z of 130 = 29.5 / 0.7413 = 39.8: flagged with three members present,
 * also when a fourth member has no measurement; never with two. */
static void test_min_members_by_hand(void **state)
{
    (void)state;
    const double med[] = {100, 100.5, 130, 100.2};
    const double rel[] = {0.001, 0.001, 0.001, 0.001};
    struct gb_fleet_cell c[4];
    double m, sd;
    cells_from(c, med, rel, 3);
    assert_int_equal(gb_fleet_point_stats(c, 3, &m, &sd), GB_OK);
    assert_true(m == 100.5);
    assert_true(fabs(sd - 0.5 * 1.4826) < 1e-12);
    assert_int_equal(c[2].flag, 1);
    assert_int_equal(count_flags(c, 3), 1);
    cells_from(c, med, rel, 4);
    c[1].present = 0; /* three present of four: 100, 130, 100.2 */
    assert_int_equal(gb_fleet_point_stats(c, 4, &m, &sd), GB_OK);
    assert_true(m == 100.2);
    assert_int_equal(c[2].flag, 1);
    c[3].present = 0; /* two present: no verdict */
    assert_int_equal(gb_fleet_point_stats(c, 4, &m, &sd), GB_OK);
    assert_int_equal(count_flags(c, 4), 0);
}

/* Two GPUs: neither can be told to be the odd one. */
static void test_two_never_flagged(void **state)
{
    (void)state;
    const double med[] = {100.0, 150.0};
    const double rel[] = {0.001, 0.001};
    struct gb_fleet_cell c[2];
    double m, sd;
    cells_from(c, med, rel, 2);
    assert_int_equal(gb_fleet_point_stats(c, 2, &m, &sd), GB_OK);
    assert_true(fabs(m - 125.0) < 1e-12);
    assert_int_equal(count_flags(c, 2), 0);
    assert_true(fabs(c[1].ratio - 1.2) < 1e-12);
}

/* More than half equal: the MAD is 0 and the mean absolute deviation
 * stands in; a missing GPU does not count. */
static void test_mad_zero_fallback(void **state)
{
    (void)state;
    const double med[] = {100, 100, 100, 100, 100, 110, 500};
    const double rel[] = {0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001};
    struct gb_fleet_cell c[7];
    double m, sd;
    cells_from(c, med, rel, 7);
    c[6].present = 0; /* failed point: its median is not a measurement */
    assert_int_equal(gb_fleet_point_stats(c, 7, &m, &sd), GB_OK);
    assert_true(fabs(m - 100) < 1e-12);
    assert_true(fabs(sd - 1.2533 * 10.0 / 6.0) < 1e-9);
    assert_int_equal(c[5].flag, 1);
    assert_int_equal(c[6].flag, 0);
    assert_true(isnan(c[6].ratio));
    assert_int_equal(count_flags(c, 7), 1);
}

/* ---- the gather ---- */

static void make_member(struct gb_fleet_part *p, int rank, const char *host, int has_gpu)
{
    memset(p, 0, sizeof *p);
    p->m.rank = rank;
    p->m.local_rank = rank % 2;
    snprintf(p->m.host, sizeof p->m.host, "%s", host);
    gb_run_info_init(&p->m.info, "gpubound run bandwidth --fleet", "13.0");
    if (!has_gpu) {
        p->m.state = GB_FLEET_NO_GPU;
        p->m.exit_code = 3;
        snprintf(p->m.reason, sizeof p->m.reason, "no CUDA driver");
        return;
    }
    p->m.info.has_device = 1;
    snprintf(p->m.info.device.name, sizeof p->m.info.device.name, "Test GPU");
    snprintf(p->m.info.device.uuid, sizeof p->m.info.device.uuid, "GPU-0000000%d-aaaa-bbbb-cccc-dddddddddddd", rank);
    snprintf(p->m.info.device.pci_bus_id, sizeof p->m.info.device.pci_bus_id, "00000000:%02X:00.0", 0x10 + rank);
    p->m.info.device.sm_count = 132;
    p->m.info.device.cc_major = 9;
    p->m.info.device.mem_peak_gbs = 3352;
    p->m.info.device.sm_clock_max_mhz = 1980;
    snprintf(p->m.info.driver_release, sizeof p->m.info.driver_release, "580.0%d", rank);
}

/* Two points (size=1M, 4M) with medians scaled by `scale`. */
static void add_records(struct gb_fleet_part *p, double scale)
{
    p->records = calloc(2, sizeof *p->records);
    assert_non_null(p->records);
    for (int i = 0; i < 2; i++) {
        struct gb_record *r = &p->records[i];
        snprintf(r->suite, sizeof r->suite, "bandwidth");
        snprintf(r->bench, sizeof r->bench, "read");
        assert_int_equal(gb_record_set_axis(r, "size", i ? "4M" : "1M"), GB_OK);
        r->samples = 50;
        r->converged = 1;
        r->batch = 1;
        r->time_ns.median = (i ? 4000.0 : 1000.0) * scale;
        r->time_ns.min = r->time_ns.median * 0.99;
        r->time_ns.mean = r->time_ns.median;
        r->time_ns.ci_lo = r->time_ns.median * 0.998;
        r->time_ns.ci_hi = r->time_ns.median * 1.002;
        r->bytes = i ? 4194304 : 1048576;
        r->bw_gbs = r->bytes / r->time_ns.median;
        r->flops = NAN;
        r->gflops = NAN;
    }
    p->n_records = 2;
    p->m.info.points_ok = 2;
}

static void make_tmp(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gb-test-fleet-XXXXXX");
    assert_non_null(mkdtemp(buf));
}

/* Serialized, read back (as rank 0 reads what MPI gathered), written as
 * one run, loaded back: fleet fields, members and the CSV's columns. */
static void test_gather_round_trip(void **state)
{
    (void)state;
    enum { N = 5 };
    struct gb_fleet_part sent[N], got[N];
    const double scale[N] = {1.0, 1.003, 0.998, 1.12, 1.0};
    char dir[64], path[128];
    for (int i = 0; i < N; i++) {
        make_member(&sent[i], i, i < 2 ? "node-a" : "node-b", i != 4);
        if (i != 4)
            add_records(&sent[i], scale[i]);
        char *text;
        size_t len;
        assert_int_equal(gb_fleet_part_to_text(&sent[i], &text, &len), GB_OK);
        assert_int_equal(gb_fleet_part_from_text(text, len, "test part", &got[i]), GB_OK);
        free(text);
        assert_int_equal(got[i].n_records, sent[i].n_records);
        assert_int_equal(got[i].m.state, sent[i].m.state);
        assert_string_equal(got[i].m.host, sent[i].m.host);
    }
    make_tmp(dir, sizeof dir);
    const char *axes[] = {"size"};
    struct gb_fleet_write_opts o = {.command_line = "mpirun -np 5 gpubound run --fleet", .mode = "quick",
                                    .axes = axes, .n_axes = 1};
    assert_int_equal(gb_fleet_write(dir, got, N, &o), GB_OK);

    struct gb_run *run = NULL;
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    assert_int_equal(run->n_records, 8);
    assert_int_equal(run->info.points_ok, 8);
    assert_false(run->info.complete); /* rank 4 had no GPU */
    assert_int_equal(run->n_warnings, 0);
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        assert_int_equal(r->fleet, 1);
        assert_int_equal(r->fleet_rank, (int)i / 2);
        assert_string_equal(r->fleet_host, r->fleet_rank < 2 ? "node-a" : "node-b");
        assert_string_equal(r->gpu_uuid, got[r->fleet_rank].m.info.device.uuid);
    }

    struct gb_fleet_member *members;
    size_t n;
    assert_int_equal(gb_fleet_members_load(dir, &members, &n), GB_OK);
    assert_int_equal(n, N);
    assert_int_equal(members[4].state, GB_FLEET_NO_GPU);
    assert_int_equal(members[4].exit_code, 3);
    assert_string_equal(members[4].reason, "no CUDA driver");
    assert_string_equal(members[3].info.device.pci_bus_id, "00000000:13:00.0");
    assert_string_equal(members[2].info.driver_release, "580.02");

    struct gb_fleet_report rep;
    assert_int_equal(gb_fleet_analyze(run, members, n, &rep), GB_OK);
    assert_int_equal(rep.n_points, 2);
    for (size_t p = 0; p < 2; p++) {
        assert_int_equal(rep.points[p].n_present, 4);
        assert_int_equal(rep.points[p].cells[3].flag, 1); /* 12% slow */
        assert_int_equal(rep.points[p].cells[0].flag + rep.points[p].cells[1].flag + rep.points[p].cells[2].flag, 0);
        assert_int_equal(rep.points[p].status[4], -1);
    }
    assert_int_equal(rep.summary[3].slow, 2);
    assert_int_equal(rep.summary[0].slow + rep.summary[1].slow + rep.summary[2].slow, 0);
    assert_int_equal(rep.summary[4].measured, 0);
    assert_true(fabs(rep.summary[3].geo_ratio - 1.12 / 1.0015) < 1e-9);
    assert_int_equal(rep.n_suites, 1);
    assert_string_equal(rep.suites[0].suite, "bandwidth");
    assert_int_equal(rep.suites[0].points, 2);
    assert_int_equal(rep.suites[0].apart, 2); /* 1.12 against 0.998, intervals of +-0.2% */
    assert_int_equal(rep.suites[0].flagged, 2);
    assert_true(fabs(rep.points[0].spread - 1.12 / 0.998) < 1e-9);
    assert_true(fabs(rep.suites[0].spread_max - 1.12 / 0.998) < 1e-9);
    struct gb_table *t = NULL;
    assert_int_equal(gb_fleet_long_table(&rep, &t), GB_OK);
    assert_int_equal(gb_table_n_rows(t), 2 * N);
    gb_table_free(t);
    gb_fleet_report_release(&rep);
    gb_run_free(run);

    char line[512] = "";
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    if (strncmp(line, "suite,bench,rank,host,gpu_uuid,size,", 36) != 0)
        fail_msg("results.csv header: %s", line);
    for (int i = 0; i < N; i++) {
        gb_fleet_part_release(&sent[i]);
        gb_fleet_part_release(&got[i]);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Per suite: two GPUs whose intervals overlap are not apart, and the
 * spread of each suite is its own; a point only one GPU measured is not
 * compared. */
static void test_suite_spread(void **state)
{
    (void)state;
    struct gb_fleet_part parts[2];
    struct gb_record recs[5];
    struct gb_run run;
    memset(&run, 0, sizeof run);
    for (int i = 0; i < 2; i++) {
        make_member(&parts[i], i, "node-a", 1);
        add_records(&parts[i], i ? 1.003 : 1.0); /* within the +-0.2% intervals */
        snprintf(parts[i].records[1].suite, sizeof parts[i].records[1].suite, "other");
        struct gb_record *o = &parts[i].records[1]; /* 5% apart */
        o->time_ns.median *= i ? 1.05 : 1.0;
        o->time_ns.ci_lo *= i ? 1.05 : 1.0;
        o->time_ns.ci_hi *= i ? 1.05 : 1.0;
        for (int k = 0; k < 2; k++) {
            recs[2 * i + k] = parts[i].records[k];
            recs[2 * i + k].fleet = 1;
            recs[2 * i + k].fleet_rank = i;
        }
    }
    recs[4] = recs[0];
    recs[4].axes = NULL; /* its own axes, not rank 0's first record's */
    recs[4].n_axes = recs[4].cap_axes = 0;
    assert_int_equal(gb_record_set_axis(&recs[4], "size", "16M"), GB_OK); /* rank 0 only */
    run.records = recs;
    run.n_records = 5;
    struct gb_fleet_member *members = calloc(2, sizeof *members);
    assert_non_null(members);
    members[0] = parts[0].m;
    members[1] = parts[1].m;
    struct gb_fleet_report rep;
    assert_int_equal(gb_fleet_analyze(&run, members, 2, &rep), GB_OK);
    assert_int_equal(rep.n_suites, 2);
    assert_string_equal(rep.suites[0].suite, "bandwidth");
    assert_int_equal(rep.suites[0].points, 1);
    assert_int_equal(rep.suites[0].apart, 0);
    assert_true(fabs(rep.suites[0].spread_median - 1.003) < 1e-9);
    assert_string_equal(rep.suites[1].suite, "other");
    assert_int_equal(rep.suites[1].apart, 1);
    assert_true(fabs(rep.suites[1].spread_max - 1.003 * 1.05) < 1e-9);
    assert_int_equal(rep.suites[0].flagged + rep.suites[1].flagged, 0); /* two GPUs */
    struct gb_table *t = NULL;
    assert_int_equal(gb_fleet_suite_table(&rep, &t), GB_OK);
    assert_int_equal(gb_table_n_rows(t), 2);
    gb_table_free(t);
    gb_fleet_report_release(&rep);
    free(recs[4].axes);
    for (int i = 0; i < 2; i++)
        gb_fleet_part_release(&parts[i]);
}

/* A fleet of 1200 members (a run.json of some 2.5 MB, over the 1 MiB that
 * once capped it) is written and read back by every loader. */
static void test_large_fleet_read_back(void **state)
{
    (void)state;
    enum { N = 1200 };
    struct gb_fleet_part *parts = calloc(N, sizeof *parts);
    char dir[64], path[128];
    assert_non_null(parts);
    for (int i = 0; i < N; i++) {
        make_member(&parts[i], i, i % 2 ? "node-a" : "node-b", 1);
        if (i < 3)
            add_records(&parts[i], 1.0 + 0.001 * i);
    }
    make_tmp(dir, sizeof dir);
    const char *axes[] = {"size"};
    struct gb_fleet_write_opts o = {.command_line = "mpirun -np 1200 gpubound run --fleet", .mode = "quick",
                                    .axes = axes, .n_axes = 1};
    if (gb_fleet_write(dir, parts, N, &o) != GB_OK)
        fail_msg("%s", gb_error_message());
    struct stat sb;
    snprintf(path, sizeof path, "%s/run.json", dir);
    assert_int_equal(stat(path, &sb), 0);
    assert_true(sb.st_size > (1 << 20));
    struct gb_run *run = NULL;
    if (gb_run_load(dir, &run) != GB_OK)
        fail_msg("%s", gb_error_message());
    assert_int_equal(run->n_records, 6);
    gb_run_free(run);
    struct gb_fleet_member *members;
    size_t n;
    if (gb_fleet_members_load(dir, &members, &n) != GB_OK)
        fail_msg("%s", gb_error_message());
    assert_int_equal(n, N);
    assert_int_equal(members[N - 1].rank, N - 1);
    free(members);
    for (int i = 0; i < N; i++)
        gb_fleet_part_release(&parts[i]);
    free(parts);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Two members saying the same rank are refused; nothing is written. */
static void test_duplicate_ranks_refused(void **state)
{
    (void)state;
    struct gb_fleet_part p[2];
    char dir[64], path[128];
    make_member(&p[0], 1, "a", 1);
    make_member(&p[1], 1, "b", 1);
    make_tmp(dir, sizeof dir);
    struct gb_fleet_write_opts o = {.command_line = "x", .mode = "full"};
    assert_int_equal(gb_fleet_write(dir, p, 2, &o), GB_ERR_USAGE);
    snprintf(path, sizeof path, "%s/run.json", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    rmdir(dir);
}

/* A part that is not one, and a run without a fleet section, say so. */
static void test_bad_input(void **state)
{
    (void)state;
    struct gb_fleet_part p;
    const char *bad = "{\"format\":\"gpubound-fleet-part/1\",\"member\":{\"rank\":-2}}";
    assert_int_equal(gb_fleet_part_from_text(bad, strlen(bad), "rank 1", &p), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "rank"));
    assert_int_equal(gb_fleet_part_from_text("{", 1, "rank 1", &p), GB_ERR_FORMAT);
    struct gb_fleet_member *m;
    size_t n;
    assert_int_equal(gb_fleet_members_load(GB_TEST_DATA "/runs/bandwidth-fixture", &m, &n) == GB_OK, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slow_outlier_flagged),  cmocka_unit_test(test_fast_outlier_flagged),
        cmocka_unit_test(test_noise_not_flagged),     cmocka_unit_test(test_wide_interval_not_flagged),
        cmocka_unit_test(test_two_never_flagged),
        cmocka_unit_test(test_mad_scaled_by_hand),
        cmocka_unit_test(test_min_members_by_hand),     cmocka_unit_test(test_mad_zero_fallback),
        cmocka_unit_test(test_gather_round_trip),     cmocka_unit_test(test_duplicate_ranks_refused),
        cmocka_unit_test(test_large_fleet_read_back),
        cmocka_unit_test(test_bad_input),             cmocka_unit_test(test_suite_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
