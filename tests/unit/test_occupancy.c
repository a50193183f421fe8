/* test_occupancy.c - the occupancy calculator.
 *
 * 1. Against truth tables recorded from the CUDA driver on real GPUs
 *    (the .csv files in tests/data/occupancy, written by `gpubound occupancy
 *    --record-truth`; format in tests/data/occupancy/README.md): every row's
 *    driver answer must be reproduced, and the device limits recorded with
 *    the table must equal the built-in table's. No table present is a
 *    failure, not a skip. With GB_OCCUPANCY_TRUTH=FILE in the environment
 *    only FILE is checked (tests/device/occupancy_truth.sh records one and
 *    checks it this way).
 * 2. Cases worked by hand from the rules of CUDA's occupancy calculator
 *    (each comment shows the arithmetic).
 * 3. The port against the reference it was ported from, the CUDA toolkit's
 *    cuda_occupancy.h, on random configurations of every built-in compute
 *    capability: the same blocks, limiting factors and allocations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_occupancy.h>

#include "gpubound/device.h"
#include "gpubound/occupancy.h"

#ifndef GB_TEST_DATA
#error "GB_TEST_DATA must name the tests/data directory"
#endif

static struct gb_device_info dev_cc(int major, int minor)
{
    struct gb_device_info d;
    if (gb_device_from_cc(major, minor, &d) != GB_OK)
        fail_msg("gb_device_from_cc(%d, %d): %s", major, minor, gb_error_message());
    return d;
}

static struct gb_occupancy_result occ(const struct gb_device_info *d, int threads, int regs,
                                      int static_smem, int dyn_smem, int max_dyn, int carveout)
{
    struct gb_occupancy_input in = {threads, regs, static_smem, dyn_smem, max_dyn, carveout};
    struct gb_occupancy_result r;
    if (gb_occupancy_compute(d, &in, &r) != GB_OK)
        fail_msg("gb_occupancy_compute: %s", gb_error_message());
    return r;
}

/* ---- 1. recorded truth tables ---- */

/* Compares a "# limits: key=value ..." line with the built-in table. */
static int check_limits_line(const char *file, const char *line, int *cc_major, int *cc_minor)
{
    char buf[1024];
    struct gb_device_info t;
    int bad = 0, major = -1, minor = -1;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *tok = strtok(buf, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        if (strcmp(tok, "cc") == 0)
            sscanf(eq + 1, "%d.%d", &major, &minor);
    }
    if (major < 0 || gb_device_from_cc(major, minor, &t) != GB_OK) {
        print_error("%s: limits line names cc %d.%d, which the built-in table lacks\n", file,
                    major, minor);
        return 1;
    }
    *cc_major = major;
    *cc_minor = minor;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *tok = strtok(buf, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        long v = strtol(eq + 1, NULL, 10);
        const struct {
            const char *key;
            int value;
        } keys[] = {
            {"warp_size", t.warp_size},
            {"max_threads_per_block", t.max_threads_per_block},
            {"max_threads_per_sm", t.max_threads_per_sm},
            {"max_blocks_per_sm", t.max_blocks_per_sm},
            {"regs_per_sm", t.regs_per_sm},
            {"regs_per_block", t.regs_per_block},
            {"smem_per_sm", t.smem_per_sm},
            {"smem_per_block", t.smem_per_block},
            {"smem_per_block_optin", t.smem_per_block_optin},
            {"smem_reserved_per_block", t.smem_reserved_per_block},
        };
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            if (strcmp(tok, keys[k].key) == 0 && v != keys[k].value) {
                print_error("%s: the device reports %s=%ld, the built-in table for %d.%d says %d\n",
                            file, tok, v, major, minor, keys[k].value);
                bad++;
            }
        }
    }
    return bad;
}

/* The attribute a kernel has before any cuFuncSetAttribute, as the driver
 * read it back, against GB_OCC_MAX_DYN_UNSET's rule (the block's limit
 * without opt-in minus the static size); 1 when they differ. */
static int check_default_attribute(const char *path, int major, int minor, int static_smem, int recorded)
{
    struct gb_device_info d = dev_cc(major, minor);
    int want = d.smem_per_block - static_smem;
    if (want < 0)
        want = 0;
    if (recorded == want)
        return 0;
    print_error("%s: static %d: the driver's default max dynamic shared memory is %d, "
                "GB_OCC_MAX_DYN_UNSET assumes %d\n", path, static_smem, recorded, want);
    return 1;
}

/* Checks every row of one truth table; returns the number of rows. */
static int check_truth_file(const char *path, int *mismatches)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int rows = 0, header = 0, limits_seen = 0, lim_major = -1, lim_minor = -1;
    int expects_over = 0, over = 0;
    if (!f)
        fail_msg("cannot open %s", path);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n' || line[0] == '\r')
            continue;
        if (line[0] == '#') {
            if (strncmp(line, "# limits:", 9) == 0) {
                *mismatches += check_limits_line(path, line + 9, &lim_major, &lim_minor);
                limits_seen = 1;
            }
            /* A recorder that asks about requests above the attribute says so. */
            if (strncmp(line, "# rows:", 7) == 0 && strstr(line, "above the attribute"))
                expects_over = 1;
            const char *dm = strstr(line, "default_max_dyn_smem="), *ss = strstr(line, " static_smem=");
            if (strncmp(line, "# variant", 9) == 0 && dm && ss && limits_seen)
                *mismatches += check_default_attribute(path, lim_major, lim_minor, atoi(ss + 13), atoi(dm + 21));
            continue;
        }
        if (!header) {
            if (strncmp(line, "device,cc,threads,regs,static_smem,dyn_smem,max_dyn_smem,carveout,blocks",
                        72) != 0)
                fail_msg("%s: unexpected header: %s", path, line);
            header = 1;
            continue;
        }
        char *field[10];
        int nf = 0;
        line[strcspn(line, "\r\n")] = '\0';
        for (char *s = line, *comma; nf < 10; s = comma + 1) {
            field[nf++] = s;
            comma = strchr(s, ',');
            if (!comma)
                break;
            *comma = '\0';
        }
        if (nf != 9)
            fail_msg("%s: row %d has %d fields, not 9", path, rows + 1, nf);
        int major = 0, minor = 0;
        if (sscanf(field[1], "%d.%d", &major, &minor) != 2)
            fail_msg("%s: row %d: bad cc \"%s\"", path, rows + 1, field[1]);
        if (limits_seen && (major != lim_major || minor != lim_minor))
            fail_msg("%s: row %d is cc %d.%d but the limits line is for %d.%d", path, rows + 1,
                     major, minor, lim_major, lim_minor);
        struct gb_device_info d = dev_cc(major, minor);
        int threads = atoi(field[2]), regs = atoi(field[3]), st_smem = atoi(field[4]);
        int dyn = atoi(field[5]), max_dyn = atoi(field[6]), carve = atoi(field[7]);
        int want = atoi(field[8]);
        over += dyn > max_dyn;
        struct gb_occupancy_result r = occ(&d, threads, regs, st_smem, dyn, max_dyn, carve);
        if (r.active_blocks != want) {
            if (*mismatches < 25)
                print_error("%s: threads=%d regs=%d static=%d dyn=%d max_dyn=%d carveout=%d: "
                            "driver %d blocks, calculator %d (limit %s)\n",
                            path, threads, regs, st_smem, dyn, max_dyn, carve, want,
                            r.active_blocks, gb_occupancy_limit_name(r.limit));
            (*mismatches)++;
        }
        rows++;
    }
    fclose(f);
    if (!limits_seen)
        fail_msg("%s: no \"# limits:\" line", path);
    if (expects_over && over == 0)
        fail_msg("%s: the recorder asked about requests above the attribute, but no row has one", path);
    print_message("%s: %d rows, %d of them a request above the kernel's attribute\n", path, rows, over);
    return rows;
}

static void test_truth_tables(void **state)
{
    (void)state;
    const char *only = getenv("GB_OCCUPANCY_TRUTH");
    if (only && *only) {
        int mismatches = 0;
        int n = check_truth_file(only, &mismatches);
        if (n < 2000)
            fail_msg("%s has %d rows; a recording has at least 2000", only, n);
        if (mismatches)
            fail_msg("%d of %d recorded rows (or limits) disagree with the driver", mismatches, n);
        return;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/occupancy", GB_TEST_DATA);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("no directory %s: record a truth table on a GPU with "
                 "`gpubound occupancy --record-truth FILE.csv` and put it there", dir);
    int files = 0, rows = 0, mismatches = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".csv") != 0)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int n = check_truth_file(path, &mismatches);
        if (n == 0)
            fail_msg("%s has no rows", path);
        rows += n;
        files++;
    }
    closedir(d);
    if (files == 0)
        fail_msg("no truth table in %s: record one on a GPU with "
                 "`gpubound occupancy --record-truth FILE.csv` (see README.md there)", dir);
    if (mismatches)
        fail_msg("%d of %d recorded rows (or limits) disagree with the driver", mismatches, rows);
}

/* ---- 2. cases worked by hand ---- */

/* cc 9.0: 64 warps, 32 blocks, 64K registers, 228 KiB shared memory per SM
 * (233472 bytes), 1 KiB reserved per block, allocated in 128-byte units. */
static void test_hopper_basic(void **state)
{
    (void)state;
    struct gb_device_info d = dev_cc(9, 0);
    struct gb_occupancy_result r;

    /* 256 threads = 8 warps, 32 regs: 1024 regs per warp; 16384 regs per
     * sub-partition hold 16 warps, 64 per SM -> 8 blocks; warps: 64/8 = 8. */
    r = occ(&d, 256, 32, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 8);
    assert_int_equal(r.active_warps, 64);
    assert_int_equal(r.max_warps, 64);
    assert_true(r.occupancy == 1.0);
    assert_int_equal(r.limits, GB_OCC_LIMIT_WARPS | GB_OCC_LIMIT_REGS);
    assert_int_equal(r.limit, GB_OCC_LIMIT_WARPS);
    assert_int_equal(r.regs_per_block, 8192);
    assert_int_equal(r.smem_per_block, 1024);          /* the reservation alone */
    assert_int_equal(r.blocks_by_smem, 233472 / 1024); /* 228 */
    assert_int_equal(r.blocks_by_blocks, 32);
    assert_int_equal(r.blocks_by_barriers, 64);        /* two barriers per block slot */

    /* 128 threads, 64 regs: 2048 per warp, 8 warps per sub-partition, 32 per
     * SM -> 32/4 = 8 blocks = 32 warps = 50 %, registers bind. */
    r = occ(&d, 128, 64, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 8);
    assert_int_equal(r.active_warps, 32);
    assert_true(r.occupancy == 0.5);
    assert_int_equal(r.limits, GB_OCC_LIMIT_REGS);

    /* 1024 threads, 64 regs: 2048 * 32 warps = 65536, exactly the per-block
     * maximum -> 1 block. */
    r = occ(&d, 1024, 64, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 1);
    assert_int_equal(r.limit, GB_OCC_LIMIT_REGS);
    /* 65 regs: 65*32 = 2080 -> 2304 per warp, * 32 = 73728 > 65536: none. */
    r = occ(&d, 1024, 65, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 0);
    assert_int_equal(r.limits, GB_OCC_LIMIT_REGS);

    /* One thread: still a whole warp; 32 resident blocks are the limit. */
    r = occ(&d, 1, 16, 0, 0, -1, -1);
    assert_int_equal(r.warps_per_block, 1);
    assert_int_equal(r.active_blocks, 32);
    assert_int_equal(r.active_warps, 32);
    assert_int_equal(r.limits, GB_OCC_LIMIT_BLOCKS);

    /* 33 regs: 1056 -> 1280 per warp (allocation unit 256); 16384/1280 = 12
     * warps per sub-partition, 48 per SM; 256 threads -> 6 blocks. */
    r = occ(&d, 256, 33, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 6);
    assert_int_equal(r.regs_per_block, 1280 * 8);

    /* 96 threads = 3 warps, 80 regs: 2560 per warp; 6 warps per
     * sub-partition, 24 per SM -> 8 blocks; the per-block check rounds 3 warps
     * up to 4 (2560*4 = 10240 <= 65536), which passes. */
    r = occ(&d, 96, 80, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 8);

    /* No registers at all: registers do not limit. */
    r = occ(&d, 64, 0, 0, 0, -1, -1);
    assert_int_equal(r.blocks_by_regs, INT_MAX);
    assert_int_equal(r.active_blocks, 32);

    /* Too many threads for a block: nothing runs, warps say why. */
    r = occ(&d, 1025, 32, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 0);
    assert_int_equal(r.limit, GB_OCC_LIMIT_WARPS);
    assert_int_equal(r.smem_per_sm, 0);
}

static void test_hopper_shared_memory(void **state)
{
    (void)state;
    struct gb_device_info d = dev_cc(9, 0);
    struct gb_occupancy_result r;

    /* 48 KiB dynamic + 1 KiB reserved = 50176 bytes per block;
     * 233472 / 50176 = 4.65 -> 4 blocks. */
    r = occ(&d, 256, 32, 0, 49152, -1, -1);
    assert_int_equal(r.smem_per_block, 50176);
    assert_int_equal(r.active_blocks, 4);
    assert_int_equal(r.limits, GB_OCC_LIMIT_SMEM);
    assert_int_equal(r.smem_per_sm, 233472);

    /* Allocation unit: 1000 static + 1024 reserved = 2024 -> 2048. */
    r = occ(&d, 32, 16, 1000, 0, -1, -1);
    assert_int_equal(r.smem_per_block, 2048);

    /* Carveout 25 %: 233472 * 25 / 100 = 58368 -> the 64 KiB split;
     * 12 KiB static + 1 KiB = 13312 per block; 65536 / 13312 = 4. */
    r = occ(&d, 256, 32, 12288, 0, -1, 25);
    assert_int_equal(r.smem_per_sm, 65536);
    assert_int_equal(r.active_blocks, 4);
    assert_int_equal(r.limit, GB_OCC_LIMIT_SMEM);
    /* 50 %: 116736 -> the 132 KiB split: 135168 / 13312 = 10 blocks, but
     * warps allow 8. */
    r = occ(&d, 256, 32, 12288, 0, -1, 50);
    assert_int_equal(r.blocks_by_smem, 10);
    assert_int_equal(r.active_blocks, 8);
    /* 0 %: the preferred split (0) is smaller than one block, so the
     * smallest split holding one block is used: 16 KiB -> 1 block. */
    r = occ(&d, 256, 32, 12288, 0, -1, 0);
    assert_int_equal(r.smem_per_sm, 16384);
    assert_int_equal(r.active_blocks, 1);
    /* 100 % is the default here. */
    r = occ(&d, 256, 32, 12288, 0, -1, 100);
    assert_int_equal(r.smem_per_sm, 233472);

    /* The opt-in maximum: 232448 dynamic + 1024 = 233472 fits once ... */
    r = occ(&d, 128, 32, 0, 232448, -1, -1);
    assert_int_equal(r.active_blocks, 1);
    /* ... one byte more does not fit at all. */
    r = occ(&d, 128, 32, 0, 232449, -1, -1);
    assert_int_equal(r.active_blocks, 0);
    assert_int_equal(r.limit, GB_OCC_LIMIT_SMEM);

    /* An attribute below the default does not lower it (the driver's answers,
     * tests/data/occupancy/h200-attribute.csv): 1000 bytes run as without it. */
    r = occ(&d, 128, 32, 0, 1000, 500, -1);
    assert_int_equal(r.active_blocks, occ(&d, 128, 32, 0, 1000, GB_OCC_MAX_DYN_UNSET, -1).active_blocks);
    assert_true(r.active_blocks > 0);
    /* Above the default, the attribute is the opt-in: a request above it gets none. */
    r = occ(&d, 128, 32, 0, 70000, 65536, -1);
    assert_int_equal(r.active_blocks, 0);
    assert_int_equal(r.limits, GB_OCC_LIMIT_SMEM);
    r = occ(&d, 128, 32, 0, 60000, 65536, -1);
    assert_true(r.active_blocks > 0);
    /* The kernel's maximum given explicitly, equal to the launch's: the
     * same as opting in for exactly what the launch uses (4 blocks, above). */
    r = occ(&d, 128, 32, 0, 49152, 49152, -1);
    assert_int_equal(r.active_blocks, 4);
}

/* cc 7.5: 32 warps, 16 blocks, 64 KiB shared memory in 32 or 64 KiB
 * splits, 256-byte units, no reservation. */
static void test_turing(void **state)
{
    (void)state;
    struct gb_device_info d = dev_cc(7, 5);
    /* 10000 static -> 10240; 65536 / 10240 = 6 blocks = 24 of 32 warps. */
    struct gb_occupancy_result r = occ(&d, 128, 32, 10000, 0, -1, -1);
    assert_int_equal(r.smem_per_block, 10240);
    assert_int_equal(r.active_blocks, 6);
    assert_int_equal(r.active_warps, 24);
    assert_true(r.occupancy == 0.75);
    assert_int_equal(r.limit, GB_OCC_LIMIT_SMEM);
    /* Carveout 0: Turing's smallest split is 32 KiB -> 3 blocks. */
    r = occ(&d, 128, 32, 10000, 0, -1, 0);
    assert_int_equal(r.smem_per_sm, 32768);
    assert_int_equal(r.active_blocks, 3);
    /* 1024 threads fill the SM's 32 warps; registers (64K on Turing too)
     * would allow 2 such blocks. */
    r = occ(&d, 1024, 32, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 1);
    assert_int_equal(r.blocks_by_regs, 2);
    assert_int_equal(r.limits, GB_OCC_LIMIT_WARPS);
}

static void test_other_ccs(void **state)
{
    (void)state;
    /* cc 8.6: 48 warps; 512 threads, 40 regs: 1280 per warp, 12 warps per
     * sub-partition = 48 -> 3 blocks; warps: 48 / 16 = 3. */
    struct gb_device_info d = dev_cc(8, 6);
    struct gb_occupancy_result r = occ(&d, 512, 40, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 3);
    assert_int_equal(r.active_warps, 48);
    assert_true(r.occupancy == 1.0);
    assert_int_equal(r.limits, GB_OCC_LIMIT_WARPS | GB_OCC_LIMIT_REGS);

    /* cc 7.0: 100 static bytes take a 256-byte unit; 96 KiB hold 384 such
     * blocks, but 2-warp blocks stop at 32 (warps and blocks both bind). */
    d = dev_cc(7, 0);
    r = occ(&d, 64, 16, 100, 0, -1, -1);
    assert_int_equal(r.smem_per_block, 256);
    assert_int_equal(r.blocks_by_smem, 384);
    assert_int_equal(r.active_blocks, 32);
    assert_int_equal(r.limits, GB_OCC_LIMIT_WARPS | GB_OCC_LIMIT_BLOCKS);
    assert_int_equal(r.blocks_by_barriers, INT_MAX); /* no barrier limit before 9.0 */

    /* cc 12.0: one barrier per block slot, so barriers tie with blocks. */
    d = dev_cc(12, 0);
    r = occ(&d, 32, 16, 0, 0, -1, -1);
    assert_int_equal(r.active_blocks, 24);
    assert_int_equal(r.limits, GB_OCC_LIMIT_BLOCKS | GB_OCC_LIMIT_BARRIERS);
    assert_int_equal(r.limit, GB_OCC_LIMIT_BLOCKS);

    /* cc 8.0: 100 KiB dynamic + 1 KiB = 103424 per block; the default
     * preference is the full 164 KiB (167936 bytes): one block. */
    d = dev_cc(8, 0);
    r = occ(&d, 256, 32, 0, 102400, -1, -1);
    assert_int_equal(r.active_blocks, 1);
    assert_int_equal(r.smem_per_sm, 167936);
    /* With carveout 50 % (83968 -> the 100 KiB split) the block needs more
     * than the preference: the smallest split holding it, 132 KiB. */
    r = occ(&d, 256, 32, 0, 102400, -1, 50);
    assert_int_equal(r.smem_per_sm, 135168);
    assert_int_equal(r.active_blocks, 1);
}

/* The kernel's max-dynamic-shared-memory attribute (cc 9.0: 233472 bytes per
 * SM at the default carveout, 1024 reserved per block, 128-byte units,
 * 49152 bytes per block without opt-in). 256 threads, 32 registers: 8
 * blocks by warps and registers. */
static void test_max_dyn_attribute(void **state)
{
    (void)state;
    struct gb_device_info d = dev_cc(9, 0);
    struct gb_occupancy_result r;
    /* 65536 dynamic, opted in to exactly that: 66560 allocated, 233472 /
     * 66560 = 3 blocks. */
    r = occ(&d, 256, 32, 0, 65536, GB_OCC_MAX_DYN_AS_REQUESTED, -1);
    assert_int_equal(r.active_blocks, 3);
    r = occ(&d, 256, 32, 0, 65536, 65536, -1);
    assert_int_equal(r.active_blocks, 3);
    r = occ(&d, 256, 32, 0, 65536, 100000, -1);
    assert_int_equal(r.active_blocks, 3);
    /* One byte above the attribute, or a kernel that never opted in (the
     * attribute stays 49152 - 0): the driver refuses the launch. */
    r = occ(&d, 256, 32, 0, 65536, 65535, -1);
    assert_int_equal(r.active_blocks, 0);
    assert_int_equal(r.limit, GB_OCC_LIMIT_SMEM);
    r = occ(&d, 256, 32, 0, 65536, GB_OCC_MAX_DYN_UNSET, -1);
    assert_int_equal(r.active_blocks, 0);
    assert_int_equal(r.limit, GB_OCC_LIMIT_SMEM);
    assert_int_equal(r.smem_per_sm, 0);
    /* Within the default: 40000 + 1024 = 41024, 41088 allocated, 233472 /
     * 41088 = 5 blocks, whichever way the attribute is given. */
    r = occ(&d, 256, 32, 0, 40000, GB_OCC_MAX_DYN_UNSET, -1);
    assert_int_equal(r.active_blocks, 5);
    r = occ(&d, 256, 32, 0, 40000, GB_OCC_MAX_DYN_AS_REQUESTED, -1);
    assert_int_equal(r.active_blocks, 5);
    /* The default is what static shared memory leaves of 49152: 8192
     * static leaves 40960, so 41000 dynamic cannot launch, 40960 can. */
    r = occ(&d, 256, 32, 8192, 41000, GB_OCC_MAX_DYN_UNSET, -1);
    assert_int_equal(r.active_blocks, 0);
    r = occ(&d, 256, 32, 8192, 40960, GB_OCC_MAX_DYN_UNSET, -1);
    assert_int_equal(r.active_blocks, 4); /* 50176 allocated: 233472 / 50176 = 4 */
    /* An attribute of 0 is below the default: it does not forbid dynamic memory. */
    r = occ(&d, 256, 32, 0, 1, 0, -1);
    assert_int_equal(r.active_blocks, 8);
    r = occ(&d, 256, 32, 0, 0, 0, -1);
    assert_int_equal(r.active_blocks, 8);
    /* The shared-memory sweep holds a given attribute: nothing above it runs. */
    struct gb_occupancy_input in = {256, 32, 0, 0, GB_OCC_MAX_DYN_UNSET, -1};
    struct gb_occupancy_point *p = NULL;
    size_t n = 0, above = 0;
    assert_int_equal(gb_occupancy_sweep(&d, &in, GB_OCC_AXIS_SMEM, &p, &n), GB_OK);
    for (size_t i = 0; i < n; i++) {
        if (p[i].value > 49152) {
            assert_int_equal(p[i].active_blocks, 0);
            above++;
        } else {
            assert_true(p[i].active_blocks > 0);
        }
    }
    assert_true(above > 100);
    free(p);
    in.max_dyn_smem_bytes = -3;
    assert_int_equal(gb_occupancy_compute(&d, &in, &r), GB_ERR_USAGE);
}

static void test_input_errors(void **state)
{
    (void)state;
    struct gb_device_info d = dev_cc(9, 0);
    struct gb_occupancy_result r;
    struct gb_occupancy_input in = {0, 32, 0, 0, -1, -1};
    assert_int_equal(gb_occupancy_compute(&d, &in, &r), GB_ERR_USAGE);
    in = (struct gb_occupancy_input){128, -1, 0, 0, -1, -1};
    assert_int_equal(gb_occupancy_compute(&d, &in, &r), GB_ERR_USAGE);
    in = (struct gb_occupancy_input){128, 32, -5, 0, -1, -1};
    assert_int_equal(gb_occupancy_compute(&d, &in, &r), GB_ERR_USAGE);
    in = (struct gb_occupancy_input){128, 32, 0, 0, -1, 101};
    assert_int_equal(gb_occupancy_compute(&d, &in, &r), GB_ERR_USAGE);
    in = (struct gb_occupancy_input){128, 32, 0, 0, -1, -2};
    assert_int_equal(gb_occupancy_compute(&d, &in, &r), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "carveout"));

    in = (struct gb_occupancy_input){128, 32, 0, 0, -1, -1};
    struct gb_device_info old = d;
    old.cc_major = 6;
    old.cc_minor = 1;
    assert_int_equal(gb_occupancy_compute(&old, &in, &r), GB_ERR_UNSUPPORTED);
    struct gb_device_info empty = {0};
    empty.cc_major = 9;
    assert_int_equal(gb_occupancy_compute(&empty, &in, &r), GB_ERR_USAGE);
}

static void test_cc_table(void **state)
{
    (void)state;
    const int known[][2] = {{7, 0}, {7, 2}, {7, 5}, {8, 0}, {8, 6},
                            {8, 7}, {8, 9}, {9, 0}, {10, 0}, {12, 0}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        struct gb_device_info d = dev_cc(known[i][0], known[i][1]);
        assert_int_equal(d.cc_major, known[i][0]);
        assert_int_equal(d.cc_minor, known[i][1]);
        assert_int_equal(d.warp_size, 32);
        assert_int_equal(d.max_regs_per_thread, 255);
        assert_int_equal(d.reg_alloc_unit, 256);
        assert_true(d.smem_per_block_optin >= d.smem_per_block);
        assert_true(d.smem_per_sm >= d.smem_per_block_optin);
        assert_int_equal(d.smem_reserved_per_block, d.cc_major >= 8 ? 1024 : 0);
        assert_int_equal(d.smem_alloc_unit, d.cc_major >= 8 ? 128 : 256);
        /* Every entry is one the calculator can use. */
        struct gb_occupancy_result r = occ(&d, 128, 32, 0, 0, -1, -1);
        assert_true(r.active_blocks > 0);
    }
    struct gb_device_info h = dev_cc(9, 0);
    assert_int_equal(h.max_threads_per_sm, 2048);
    assert_int_equal(h.max_blocks_per_sm, 32);
    assert_int_equal(h.smem_per_sm, 233472);
    assert_int_equal(h.smem_per_block_optin, 232448);
    struct gb_device_info a = dev_cc(8, 9);
    assert_int_equal(a.max_threads_per_sm, 1536);
    assert_int_equal(a.max_blocks_per_sm, 24);

    struct gb_device_info d;
    assert_int_equal(gb_device_from_cc(6, 1, &d), GB_ERR_USAGE);
    assert_int_equal(gb_device_from_cc(8, 8, &d), GB_ERR_USAGE);
    assert_int_equal(gb_device_from_cc(11, 0, &d), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "11.0"));
}

static void test_sweeps(void **state)
{
    (void)state;
    struct gb_device_info d = dev_cc(9, 0);
    struct gb_occupancy_input in = {256, 32, 0, 0, -1, -1};
    struct gb_occupancy_point *p = NULL;
    size_t n = 0;

    assert_int_equal(gb_occupancy_sweep(&d, &in, GB_OCC_AXIS_THREADS, &p, &n), GB_OK);
    assert_int_equal((int)n, 32);
    assert_int_equal(p[0].value, 32);
    assert_int_equal(p[31].value, 1024);
    assert_int_equal(p[7].value, 256);
    assert_int_equal(p[7].active_blocks, 8);
    assert_int_equal(p[0].active_blocks, 32);  /* 1-warp blocks: the block limit */
    assert_int_equal(p[0].active_warps, 32);
    /* 640 threads = 20 warps: 64 / 20 = 3 blocks = 60 warps. */
    assert_int_equal(p[19].active_warps, 60);
    free(p);

    assert_int_equal(gb_occupancy_sweep(&d, &in, GB_OCC_AXIS_REGS, &p, &n), GB_OK);
    assert_int_equal((int)n, 255);
    assert_int_equal(p[0].value, 1);
    assert_int_equal(p[254].value, 255);
    for (size_t i = 1; i < n; i++)
        assert_true(p[i].active_warps <= p[i - 1].active_warps);
    assert_int_equal(p[31].active_warps, 64);  /* 32 regs */
    assert_int_equal(p[63].active_warps, 32);  /* 64 regs: 8 warps/sub-partition -> 4 blocks */
    assert_int_equal(p[254].active_warps, 8);  /* 255 regs: 8192 per warp, 2 per sub -> 1 block */
    free(p);

    assert_int_equal(gb_occupancy_sweep(&d, &in, GB_OCC_AXIS_SMEM, &p, &n), GB_OK);
    assert_int_equal((int)n, 232448 / 128 + 1);
    assert_int_equal(p[0].value, 0);
    assert_int_equal(p[n - 1].value, 232448);
    assert_int_equal(p[n - 1].active_blocks, 1);
    for (size_t i = 1; i < n; i++)
        assert_true(p[i].active_blocks <= p[i - 1].active_blocks);
    free(p);

    /* A static size that is not a multiple of the unit: the last point is
     * still the exact maximum. */
    in.static_smem_bytes = 1000;
    assert_int_equal(gb_occupancy_sweep(&d, &in, GB_OCC_AXIS_SMEM, &p, &n), GB_OK);
    assert_int_equal(p[n - 1].value, 232448 - 1000);
    assert_int_equal(p[n - 1].active_blocks, 1);
    assert_int_equal(p[n - 2].value, (232448 - 1000) / 128 * 128);
    free(p);

    in.threads_per_block = 0;
    assert_int_equal(gb_occupancy_sweep(&d, &in, GB_OCC_AXIS_REGS, &p, &n), GB_ERR_USAGE);
    assert_null(p);
}

/* ---- 3. against cuda_occupancy.h ---- */

static uint64_t rng_state;

static uint32_t rng_below(uint32_t n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)(((rng_state * 2685821657736338717ull) >> 32) % n);
}

static void test_matches_cuda_occupancy_h(void **state)
{
    (void)state;
    const int known[][2] = {{7, 0}, {7, 2}, {7, 5}, {8, 0}, {8, 6},
                            {8, 7}, {8, 9}, {9, 0}, {10, 0}, {12, 0}};
    rng_state = 0x0cc0cc0cc0ull;
    int compared = 0, zero = 0;
    for (size_t c = 0; c < sizeof known / sizeof known[0]; c++) {
        struct gb_device_info d = dev_cc(known[c][0], known[c][1]);
        cudaOccDeviceProp prop;
        memset(&prop, 0, sizeof prop);
        prop.computeMajor = d.cc_major;
        prop.computeMinor = d.cc_minor;
        prop.maxThreadsPerBlock = d.max_threads_per_block;
        prop.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
        prop.regsPerBlock = d.regs_per_block;
        prop.regsPerMultiprocessor = d.regs_per_sm;
        prop.warpSize = d.warp_size;
        prop.sharedMemPerBlock = (size_t)d.smem_per_block;
        prop.sharedMemPerMultiprocessor = (size_t)d.smem_per_sm;
        prop.numSms = 1;
        prop.sharedMemPerBlockOptin = (size_t)d.smem_per_block_optin;
        prop.reservedSharedMemPerBlock = (size_t)d.smem_reserved_per_block;
        for (int k = 0; k < 20000; k++) {
            struct gb_occupancy_input in;
            in.threads_per_block = 1 + (int)rng_below(1100);
            in.regs_per_thread = (int)rng_below(260);
            in.static_smem_bytes = rng_below(4) == 0 ? 0 : (int)rng_below(49153);
            int room = d.smem_per_block_optin - in.static_smem_bytes;
            in.dyn_smem_bytes = rng_below(4) == 0 ? 0 : (int)rng_below((uint32_t)room + 2048);
            switch (rng_below(4)) {
            case 0: in.max_dyn_smem_bytes = GB_OCC_MAX_DYN_AS_REQUESTED; break;
            case 1: in.max_dyn_smem_bytes = (int)rng_below((uint32_t)room + 1); break;
            case 2: in.max_dyn_smem_bytes = GB_OCC_MAX_DYN_UNSET; break;
            default: in.max_dyn_smem_bytes = room; break;
            }
            const int carve[] = {-1, 0, 25, 50, 100};
            in.carveout_pct = rng_below(2) ? carve[rng_below(5)] : (int)rng_below(101);

            /* The attributes the CUDA runtime fills for a kernel (the C++
             * constructor from cudaFuncAttributes): opt-in limit, one block
             * barrier, no partitioned caching, no virtual resources. */
            cudaOccFuncAttributes attr;
            memset(&attr, 0, sizeof attr);
            attr.maxThreadsPerBlock = INT_MAX;
            attr.numRegs = in.regs_per_thread;
            attr.sharedSizeBytes = (size_t)in.static_smem_bytes;
            attr.partitionedGCConfig = PARTITIONED_GC_OFF;
            attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
            attr.maxDynamicSharedSizeBytes =
                (size_t)(in.max_dyn_smem_bytes < 0 ? in.dyn_smem_bytes : in.max_dyn_smem_bytes);
            /* cuda_occupancy.h lets an attribute below the default lower it; the
             * driver does not (tests/data/occupancy/h200-attribute.csv): the header
             * is given the limit the driver acts on. */
            int dflt = d.smem_per_block > in.static_smem_bytes ? d.smem_per_block - in.static_smem_bytes : 0;
            if (in.max_dyn_smem_bytes >= 0 && in.max_dyn_smem_bytes < dflt)
                attr.maxDynamicSharedSizeBytes = (size_t)dflt;
            if (in.max_dyn_smem_bytes == GB_OCC_MAX_DYN_UNSET) {
                /* A kernel that never set the attribute: the runtime's
                 * default limit, and the value the driver reads back. */
                attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
                attr.maxDynamicSharedSizeBytes = (size_t)(d.smem_per_block - in.static_smem_bytes);
            }
            attr.numBlockBarriers = 1;
            cudaOccDeviceState dstate;
            memset(&dstate, 0, sizeof dstate);
            dstate.cacheConfig = CACHE_PREFER_NONE;
            dstate.carveoutConfig = in.carveout_pct;
            cudaOccResult want;
            memset(&want, 0, sizeof want);
            cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(
                &want, &prop, &attr, &dstate, in.threads_per_block, (size_t)in.dyn_smem_bytes);
            if (e != CUDA_OCC_SUCCESS)
                fail_msg("cc %d.%d: cuda_occupancy.h error %d", d.cc_major, d.cc_minor, (int)e);
            struct gb_occupancy_result got;
            if (gb_occupancy_compute(&d, &in, &got) != GB_OK)
                fail_msg("gb_occupancy_compute: %s", gb_error_message());
            if (got.active_blocks != want.activeBlocksPerMultiprocessor ||
                got.limits != want.limitingFactors ||
                got.regs_per_block != want.allocatedRegistersPerBlock ||
                got.smem_per_block != (int)want.allocatedSharedMemPerBlock ||
                got.blocks_by_regs != want.blockLimitRegs ||
                got.blocks_by_smem != want.blockLimitSharedMem ||
                got.blocks_by_warps != want.blockLimitWarps ||
                got.blocks_by_blocks != want.blockLimitBlocks)
                fail_msg("cc %d.%d threads=%d regs=%d static=%d dyn=%d max_dyn=%d carveout=%d: "
                         "blocks %d/%d, limits %#x/%#x, regs %d/%d, smem %d/%zu "
                         "(this port / cuda_occupancy.h)",
                         d.cc_major, d.cc_minor, in.threads_per_block, in.regs_per_thread,
                         in.static_smem_bytes, in.dyn_smem_bytes, in.max_dyn_smem_bytes,
                         in.carveout_pct, got.active_blocks, want.activeBlocksPerMultiprocessor,
                         got.limits, want.limitingFactors, got.regs_per_block,
                         want.allocatedRegistersPerBlock, got.smem_per_block,
                         want.allocatedSharedMemPerBlock);
            compared++;
            zero += got.active_blocks == 0;
        }
    }
    /* The random inputs reach blocks that cannot run as well as ones that can. */
    assert_true(zero > 1000 && zero < compared - 1000);
}

/* Achieved warps per SM, worked by hand: waves of blocks_per_sm * SMs
 * blocks, the last partial one averaged over every SM. */
static void test_achieved_warps(void **state)
{
    (void)state;
    struct gb_occupancy_achieved a;
    /* 16 blocks of 8 warps on 132 SMs, 8 resident per SM: one partial
     * wave of 16 * 8 / 132 = 0.9697 warps per SM (the limit is 64). */
    assert_int_equal(gb_occupancy_achieved(16, 8, 8, 132, &a), GB_OK);
    assert_true(fabs(a.warps_per_sm - 128.0 / 132.0) < 1e-12);
    assert_int_equal(a.limit_warps, 64);
    assert_int_equal(a.full_waves, 0);
    assert_int_equal(a.tail_blocks, 16);
    assert_int_equal(a.bound, GB_ACHIEVED_GRID);
    /* Exactly one wave (8 * 132 = 1056 blocks): the limit. */
    assert_int_equal(gb_occupancy_achieved(1056, 8, 8, 132, &a), GB_OK);
    assert_true(fabs(a.warps_per_sm - 64) < 1e-12);
    assert_int_equal(a.bound, GB_ACHIEVED_LIMIT);
    /* One and a half waves: 528 tail blocks * 8 / 132 = 32, mean (64 + 32) / 2 = 48. */
    assert_int_equal(gb_occupancy_achieved(1584, 8, 8, 132, &a), GB_OK);
    assert_true(fabs(a.warps_per_sm - 48) < 1e-12);
    assert_int_equal(a.full_waves, 1);
    assert_int_equal(a.tail_blocks, 528);
    assert_true(fabs(a.tail_warps_per_sm - 32) < 1e-12);
    assert_int_equal(a.bound, GB_ACHIEVED_TAIL);
    /* 512 one-warp blocks, 32 resident, 132 SMs (the corpus row sum at 32
     * threads): 512 < 4224, so 512 / 132 = 3.879 warps per SM, not 32. */
    assert_int_equal(gb_occupancy_achieved(512, 1, 32, 132, &a), GB_OK);
    assert_true(fabs(a.warps_per_sm - 512.0 / 132.0) < 1e-12);
    /* Ten full waves and one block more: (10 * 2 + 2 / 4) / 11. */
    assert_int_equal(gb_occupancy_achieved(41, 2, 1, 4, &a), GB_OK);
    assert_true(fabs(a.warps_per_sm - (20.0 + 0.5) / 11.0) < 1e-12);
    assert_int_equal(gb_occupancy_achieved(0, 8, 8, 132, &a), GB_ERR_USAGE);
    assert_int_equal(gb_occupancy_achieved(16, 8, 0, 132, &a), GB_ERR_USAGE);
    assert_int_equal(gb_occupancy_achieved(16, 8, 8, 0, &a), GB_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hopper_basic),
        cmocka_unit_test(test_hopper_shared_memory),
        cmocka_unit_test(test_turing),
        cmocka_unit_test(test_other_ccs),
        cmocka_unit_test(test_max_dyn_attribute),
        cmocka_unit_test(test_input_errors),
        cmocka_unit_test(test_cc_table),
        cmocka_unit_test(test_sweeps),
        cmocka_unit_test(test_matches_cuda_occupancy_h),
        cmocka_unit_test(test_truth_tables),
        cmocka_unit_test(test_achieved_warps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
