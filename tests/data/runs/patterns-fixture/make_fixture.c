/* make_fixture.c - writes the synthetic run directory patterns-fixture
 * through gpubound's own run writer. The times are made up (see README.md);
 * no GPU is involved. Build and run from the repository root:
 *
 *   cc -std=c11 -D_GNU_SOURCE -Iinclude tests/data/runs/patterns-fixture/make_fixture.c \
 *      build/libgpubound.a -ljansson -lgsl -lgslcblas -ldl -lm -o /tmp/make_fixture
 *   rm -rf /tmp/pf && /tmp/make_fixture tests/data/runs/bandwidth-fixture /tmp/pf
 *   cp /tmp/pf/run.json /tmp/pf/results.json /tmp/pf/results.csv tests/data/runs/patterns-fixture/
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/results.h"

static struct gb_run_writer *w;
static struct gb_run_info info;

/* One point: median `us` microseconds, a CI about 0.2% below and 0.3% above. */
static void add(const char *bench, const char *axes, double us, double bytes, const char *failed,
                const char *metrics)
{
    struct gb_record r;
    char buf[512], *save = NULL;
    memset(&r, 0, sizeof r);
    snprintf(r.suite, sizeof r.suite, "patterns");
    snprintf(r.bench, sizeof r.bench, "%s", bench);
    snprintf(buf, sizeof buf, "%s", axes);
    for (char *kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        *eq = '\0';
        gb_record_set_axis(&r, kv, eq + 1);
    }
    r.cache = GB_CACHE_HOT;
    r.batch = 1;
    r.bytes = bytes;
    r.sm_mhz_before = r.sm_mhz_after = 1980;
    r.wall_s = 0.5;
    if (failed) {
        r.status = GB_REC_FAILED;
        snprintf(r.reason, sizeof r.reason, "%s", failed);
        r.time_ns.min = r.time_ns.median = r.time_ns.mean = r.time_ns.stddev = r.time_ns.ci_lo = r.time_ns.ci_hi = NAN;
        r.bw_gbs = r.gflops = NAN;
    } else {
        double ns = us * 1e3;
        r.status = GB_REC_OK;
        r.samples = 40;
        r.converged = 1;
        r.time_ns.median = ns;
        r.time_ns.min = ns * 0.996;
        r.time_ns.mean = ns * 1.001;
        r.time_ns.stddev = ns * 0.004;
        r.time_ns.ci_lo = ns * 0.998;
        r.time_ns.ci_hi = ns * 1.003;
        r.bw_gbs = bytes > 0 ? bytes / ns : NAN;
        r.gflops = NAN;
        r.timed_s = 40 * ns * 1e-9;
        info.timed_s += r.timed_s;
    }
    if (metrics) {
        snprintf(buf, sizeof buf, "%s", metrics);
        for (char *kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(kv, '=');
            *eq = '\0';
            gb_record_set_metric(&r, kv, atof(eq + 1));
        }
    }
    if (r.status == GB_REC_OK)
        info.points_ok++;
    else
        info.points_failed++;
    if (gb_run_writer_add(w, &r) != GB_OK) {
        fprintf(stderr, "%s\n", gb_error_message());
        exit(1);
    }
}

int main(int argc, char **argv)
{
    struct gb_run *bw = NULL;
    static const char *const axes[] = {"ways", "pad", "codewords", "variant", "load", "elements", "width",
                                       "bytes", "memory", "chunks", "iters", "items"};
    if (argc != 3 || gb_run_load(argv[1], &bw) != GB_OK) {
        fprintf(stderr, "usage: make_fixture BANDWIDTH_FIXTURE_DIR OUT_DIR\n");
        return 2;
    }
    info = bw->info;
    snprintf(info.command_line, sizeof info.command_line,
             "gpubound run patterns --out tests/data/runs/patterns-fixture");
    info.points_ok = info.points_failed = 0;
    info.timed_s = 0;
    info.wall_s = 40.0;
    if (gb_run_dir_prepare(argv[2]) != GB_OK ||
        gb_run_writer_open(argv[2], &info, axes, (int)(sizeof axes / sizeof axes[0]), &w) != GB_OK) {
        fprintf(stderr, "%s\n", gb_error_message());
        return 1;
    }
    static const char *const ways[] = {"1", "2", "4", "8", "16", "32"};
    char a[256];
    double rs_bytes = 0;   /* the RS benches count no bytes */
    for (int i = 0; i < 6; i++)
        for (int pad = 0; pad < 2; pad++) {
            int wv = atoi(ways[i]);
            snprintf(a, sizeof a, "ways=%s pad=%d codewords=1M variant=original", ways[i], pad);
            add("bank_conflict", a, pad ? 420.0 : 400.0 + 130.0 * wv, rs_bytes, NULL, NULL);
            snprintf(a, sizeof a, "ways=%s pad=%d codewords=1M variant=revised", ways[i], pad);
            add("bank_conflict", a, 150.0 + 0.5 * i, rs_bytes,
                wv == 16 && pad == 1 ? "codeword 17: parity 0badc0de 00000000, the host's encoder gives "
                                       "1f2e3d4c 5a6b7c8d" : NULL, NULL);
        }
    double ab = 12.0 * 33554432;
    add("global_memory", "load=ca elements=32M variant=original", 110.0, ab, NULL, NULL);
    add("global_memory", "load=ca elements=32M variant=revised", 112.0, ab, NULL, NULL);
    add("global_memory", "load=cg elements=32M variant=original", 160.0, ab, NULL, NULL);
    add("global_memory", "load=cg elements=32M variant=revised", 113.0, ab, NULL, NULL);
    add("replication_copy", "elements=32M variant=original", 105.0, ab, NULL, NULL);
    add("replication_copy", "elements=32M variant=revised", 100.0, ab, NULL, NULL);
    static const double co[2][2][2] = {{{9.5, 8.0}, {260.0, 255.0}}, {{8.6, 8.0}, {257.0, 255.0}}};
    for (int wi = 0; wi < 2; wi++)
        for (int b = 0; b < 2; b++)
            for (int v = 0; v < 2; v++) {
                snprintf(a, sizeof a, "width=%d bytes=%s variant=%s", wi ? 8 : 4, b ? "512M" : "16M",
                         v ? "revised" : "original");
                add("coalescing", a, co[wi][b][v], 2.0 * (b ? 536870912.0 : 16777216.0), NULL, NULL);
            }
    add("scattered_copy", "memory=pageable chunks=1024 bytes=1M variant=original", 3100.0, 1048576, NULL, NULL);
    add("scattered_copy", "memory=pageable chunks=1024 bytes=1M variant=revised", 180.0, 1048576, NULL, NULL);
    add("scattered_copy", "memory=pinned chunks=1024 bytes=1M variant=original", 1900.0, 1048576, NULL, NULL);
    add("scattered_copy", "memory=pinned chunks=1024 bytes=1M variant=revised", 26.0, 1048576, NULL, NULL);
    add("register_imbalance", "iters=256 variant=original", 640.0, 0, NULL,
        "regs=40 spill_bytes=0 blocks_per_sm=3 blocks_per_sm_driver=3 occ_theoretical=0.75 "
        "occ_achieved=0.71 resident_max=3");
    add("register_imbalance", "iters=256 variant=revised", 600.0, 0, NULL,
        "regs=32 spill_bytes=0 blocks_per_sm=4 blocks_per_sm_driver=4 occ_theoretical=1 "
        "occ_achieved=0.93 resident_max=4");
    add("barrier_wait", "codewords=1M variant=original", 150.0, rs_bytes, NULL, NULL);
    add("barrier_wait", "codewords=1M variant=revised", 95.0, rs_bytes, NULL, NULL);
    add("branch_divergence", "items=4M variant=original", 900.0, 0, NULL, NULL);
    add("branch_divergence", "items=4M variant=revised", 520.0, 0, NULL, NULL);
    info.complete = 1;
    if (gb_run_writer_close(w, &info) != GB_OK) {
        fprintf(stderr, "%s\n", gb_error_message());
        return 1;
    }
    gb_run_free(bw);
    return 0;
}
