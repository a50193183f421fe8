/* cmd_occupancy.c - `gpubound occupancy`: the occupancy calculator, and the
 * recorder of the driver's own answers that the calculator is tested
 * against (the hidden option --record-truth FILE). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "gpubound/results.h"
#include "cli/cmd_occupancy.h"
#include "cli/occupancy_truth.h"
#include "gpubound/device.h"
#include "gpubound/gpu.h"
#include "gpubound/occupancy.h"
#include "gpubound/report.h"

#define CMD "occupancy"

static void limits_text(unsigned limits, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned bit = 1; bit <= GB_OCC_LIMIT_BARRIERS; bit <<= 1)
        if ((limits & bit) && len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "",
                                    gb_occupancy_limit_name((enum gb_occ_limit)bit));
    if (!buf[0])
        snprintf(buf, n, "none");
}

static void limit_count_text(int blocks, char *buf, size_t n)
{
    if (blocks == INT_MAX)
        snprintf(buf, n, "unlimited");
    else
        snprintf(buf, n, "%d", blocks);
}

static const char *axis_label(enum gb_occupancy_axis axis)
{
    switch (axis) {
    case GB_OCC_AXIS_THREADS: return "threads per block";
    case GB_OCC_AXIS_REGS: return "registers per thread";
    case GB_OCC_AXIS_SMEM: return "dynamic shared memory";
    }
    return "?";
}

static int axis_value(const struct gb_occupancy_input *in, enum gb_occupancy_axis axis)
{
    switch (axis) {
    case GB_OCC_AXIS_THREADS: return in->threads_per_block;
    case GB_OCC_AXIS_REGS: return in->regs_per_thread;
    case GB_OCC_AXIS_SMEM: return in->dyn_smem_bytes;
    }
    return 0;
}

/* ---- the terminal form ---- */

static enum gb_status print_sweep_table(const struct gb_device_info *dev,
                                        const struct gb_occupancy_input *in,
                                        enum gb_occupancy_axis axis, int width)
{
    enum gb_status st;
    struct gb_occupancy_point *p = NULL;
    size_t n = 0;
    struct gb_table *t = NULL;
    char buf[128];

    if ((st = gb_occupancy_sweep(dev, in, axis, &p, &n)) != GB_OK)
        goto out;
    if (!(t = gb_table_new())) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory for a table");
        goto out;
    }
    if ((st = gb_table_column(t, axis_label(axis), axis == GB_OCC_AXIS_SMEM ? "bytes" : NULL)) ||
        (st = gb_table_column(t, "active blocks", NULL)) ||
        (st = gb_table_column(t, "active warps", NULL)) ||
        (st = gb_table_column(t, "occupancy", "%")) ||
        (st = gb_table_column(t, "limited by", NULL)) || (st = gb_table_column(t, "asked", NULL)))
        goto out;
    /* Consecutive points with the same answer share a row, as the steps of
     * the calculator's graphs. */
    const int asked = axis_value(in, axis);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && p[j + 1].active_blocks == p[i].active_blocks &&
               p[j + 1].active_warps == p[i].active_warps && p[j + 1].limits == p[i].limits)
            j++;
        if (p[i].value == p[j].value)
            snprintf(buf, sizeof buf, "%d", p[i].value);
        else
            snprintf(buf, sizeof buf, "%d..%d", p[i].value, p[j].value);
        if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, buf)) ||
            (st = gb_table_cell_int(t, p[i].active_blocks)) ||
            (st = gb_table_cell_int(t, p[i].active_warps)) ||
            (st = gb_table_cell_num(t, 100.0 * p[i].occupancy, 3)))
            goto out;
        limits_text(p[i].limits, buf, sizeof buf);
        if ((st = gb_table_cell_text(t, buf)) ||
            (st = gb_table_cell_text(t, asked >= p[i].value && asked <= p[j].value ? "*" : NULL)))
            goto out;
        i = j + 1;
    }
    printf("\nActive warps per SM over %s", axis_label(axis));
    switch (axis) {
    case GB_OCC_AXIS_THREADS:
        printf(" (%d registers, %d + %d bytes shared memory held):\n", in->regs_per_thread,
               in->static_smem_bytes, in->dyn_smem_bytes);
        break;
    case GB_OCC_AXIS_REGS:
        printf(" (%d threads, %d + %d bytes shared memory held):\n", in->threads_per_block,
               in->static_smem_bytes, in->dyn_smem_bytes);
        break;
    case GB_OCC_AXIS_SMEM:
        printf(" (%d threads, %d registers, %d bytes static shared memory held):\n",
               in->threads_per_block, in->regs_per_thread, in->static_smem_bytes);
        break;
    }
    st = gb_table_print(t, stdout, GB_FORMAT_TABLE, width);
out:
    gb_table_free(t);
    free(p);
    return st;
}

static enum gb_status print_terminal(const struct gb_device_info *dev,
                                     const struct gb_occupancy_input *in,
                                     const struct gb_occupancy_result *r)
{
    enum gb_status st;
    struct gb_table *t = NULL;
    char buf[128];
    const int width = gb_term_width(stdout);

    printf("Occupancy on compute capability %d.%d%s%s%s\n", dev->cc_major, dev->cc_minor,
           dev->name[0] ? " (" : "", dev->name, dev->name[0] ? ")" : "");
    if (in->carveout_pct < 0)
        snprintf(buf, sizeof buf, "default");
    else
        snprintf(buf, sizeof buf, "%d%%", in->carveout_pct);
    printf("  block: %d threads (%d warps), %d registers per thread, %d + %d bytes shared memory "
           "(static + dynamic), carveout %s\n\n",
           in->threads_per_block, r->warps_per_block, in->regs_per_thread, in->static_smem_bytes,
           in->dyn_smem_bytes, buf);
    printf("  active blocks per SM  %d\n", r->active_blocks);
    printf("  active warps per SM   %d of %d\n", r->active_warps, r->max_warps);
    printf("  occupancy             %.4g%%\n", 100.0 * r->occupancy);
    limits_text(r->limits, buf, sizeof buf);
    printf("  limited by            %s%s\n\n", buf,
           r->active_blocks == 0 ? " (the block cannot run)" : "");

    if (!(t = gb_table_new())) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory for a table");
        goto out;
    }
    if ((st = gb_table_column(t, "limit", NULL)) || (st = gb_table_column(t, "blocks per SM", NULL)))
        goto out;
    const struct {
        const char *name;
        int blocks;
    } rows[] = {
        {"warps", r->blocks_by_warps},          {"registers", r->blocks_by_regs},
        {"shared memory", r->blocks_by_smem},   {"blocks", r->blocks_by_blocks},
        {"barriers", r->blocks_by_barriers},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        /* Before 9.0 the barrier limit does not exist. */
        if (i == 4 && dev->cc_major < 9)
            continue;
        limit_count_text(rows[i].blocks, buf, sizeof buf);
        if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, rows[i].name)) ||
            (st = gb_table_cell_text(t, buf)))
            goto out;
    }
    if ((st = gb_table_print(t, stdout, GB_FORMAT_TABLE, width)) != GB_OK)
        goto out;
    printf("  allocated per block: %d registers, %d bytes shared memory (%d reserved by the driver)",
           r->regs_per_block, r->smem_per_block, dev->smem_reserved_per_block);
    if (r->active_blocks > 0)
        printf("; shared memory per SM under the carveout: %d bytes", r->smem_per_sm);
    printf("\n");
    for (int a = GB_OCC_AXIS_THREADS; a <= GB_OCC_AXIS_SMEM; a++)
        if ((st = print_sweep_table(dev, in, (enum gb_occupancy_axis)a, width)) != GB_OK)
            goto out;
out:
    gb_table_free(t);
    return st;
}

/* ---- the machine forms: one tidy table ---- */

static enum gb_status add_row(struct gb_table *t, const char *sweep, const struct gb_device_info *dev,
                              const struct gb_occupancy_input *in, int blocks, int warps,
                              int max_warps, double occupancy, unsigned limits)
{
    enum gb_status st;
    char cc[16], lim[128];
    snprintf(cc, sizeof cc, "%d.%d", dev->cc_major, dev->cc_minor);
    limits_text(limits, lim, sizeof lim);
    if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, sweep)) ||
        (st = gb_table_cell_text(t, cc)) || (st = gb_table_cell_int(t, in->threads_per_block)) ||
        (st = gb_table_cell_int(t, in->regs_per_thread)) ||
        (st = gb_table_cell_int(t, in->static_smem_bytes)) ||
        (st = gb_table_cell_int(t, in->dyn_smem_bytes)) ||
        (st = gb_table_cell_int(t, in->carveout_pct)) || (st = gb_table_cell_int(t, blocks)) ||
        (st = gb_table_cell_int(t, warps)) || (st = gb_table_cell_int(t, max_warps)) ||
        (st = gb_table_cell_num(t, occupancy, 4)) || (st = gb_table_cell_text(t, lim)))
        return st;
    return GB_OK;
}

static enum gb_status print_machine(const struct gb_device_info *dev,
                                    const struct gb_occupancy_input *in,
                                    const struct gb_occupancy_result *r, enum gb_format fmt)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    struct gb_occupancy_point *p = NULL;
    size_t n = 0;
    static const char *const cols[] = {"sweep",      "cc",           "threads",      "regs",
                                       "static_smem", "dyn_smem",    "carveout",     "active_blocks",
                                       "active_warps", "max_warps",  "occupancy",    "limited_by"};
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory for a table");
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        if ((st = gb_table_column(t, cols[c], NULL)) != GB_OK)
            goto out;
    if ((st = add_row(t, "config", dev, in, r->active_blocks, r->active_warps, r->max_warps,
                      r->occupancy, r->limits)) != GB_OK)
        goto out;
    for (int a = GB_OCC_AXIS_THREADS; a <= GB_OCC_AXIS_SMEM; a++) {
        if ((st = gb_occupancy_sweep(dev, in, (enum gb_occupancy_axis)a, &p, &n)) != GB_OK)
            goto out;
        for (size_t i = 0; i < n; i++) {
            struct gb_occupancy_input q = *in;
            switch ((enum gb_occupancy_axis)a) {
            case GB_OCC_AXIS_THREADS: q.threads_per_block = p[i].value; break;
            case GB_OCC_AXIS_REGS: q.regs_per_thread = p[i].value; break;
            case GB_OCC_AXIS_SMEM: q.dyn_smem_bytes = p[i].value; break;
            }
            if ((st = add_row(t, gb_occupancy_axis_name((enum gb_occupancy_axis)a), dev, &q,
                              p[i].active_blocks, p[i].active_warps, r->max_warps, p[i].occupancy,
                              p[i].limits)) != GB_OK)
                goto out;
        }
        free(p);
        p = NULL;
    }
    st = gb_table_print(t, stdout, fmt, 0);
out:
    free(p);
    gb_table_free(t);
    return st;
}

/* ---- the truth-table recorder ---- */

/* Kernel variants and launch inputs: occupancy_truth.h. Each register
 * variant is compiled with two static sizes; launch-time inputs (block size,
 * dynamic shared memory, carveout) are varied on every module. */
#define N_OF(a) GB_TRUTH_N(a)

static int record_truth(const char *path, int ordinal)
{
    enum gb_status st = GB_OK;
    struct gb_gpu g;
    int opened = 0, rows = 0, skipped = 0, modules = 0, readback_noted = 0;
    FILE *f = NULL;
    char tmp[4200], name[128], first_err[256] = "";

    memset(&g, 0, sizeof g);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if ((st = gb_gpu_open(ordinal, &g)) != GB_OK)
        goto out;
    opened = 1;
    const struct gb_device_info *d = &g.info;
    if (!(f = fopen(tmp, "w"))) {
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
        goto out;
    }
    /* A comma in the name would break the CSV. */
    snprintf(name, sizeof name, "%s", d->name);
    for (char *c = name; *c; c++)
        if (*c == ',' || *c == '\n' || *c == '\r')
            *c = ' ';
    char when[32];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "# gpubound occupancy truth table: cuOccupancyMaxActiveBlocksPerMultiprocessor "
               "for compiled variants of kernels/occupancy.cu\n");
    fprintf(f, "# device: %s (%s), driver %d, recorded %s by gpubound %s (%s)\n", name, d->uuid,
            d->driver_version, when, GB_VERSION, GB_GIT_REV);
    fprintf(f, "# limits: cc=%d.%d warp_size=%d max_threads_per_block=%d max_threads_per_sm=%d "
               "max_blocks_per_sm=%d regs_per_sm=%d regs_per_block=%d smem_per_sm=%d "
               "smem_per_block=%d smem_per_block_optin=%d smem_reserved_per_block=%d\n",
            d->cc_major, d->cc_minor, d->warp_size, d->max_threads_per_block,
            d->max_threads_per_sm, d->max_blocks_per_sm, d->regs_per_sm, d->regs_per_block,
            d->smem_per_sm, d->smem_per_block, d->smem_per_block_optin,
            d->smem_reserved_per_block);
    fprintf(f, "device,cc,threads,regs,static_smem,dyn_smem,max_dyn_smem,carveout,blocks\n");

    for (size_t ri = 0; ri < N_OF(gb_truth_regs); ri++) {
        for (int pi = 0; pi < 2; pi++) {
            int pick = gb_truth_static_pick(ri, pi);
            if (pick < 0)
                continue;
            char o[3][32];
            gb_truth_variant_opts(ri, pick, o);
            const char *opts[] = {o[0], o[1], o[2]};
            CUmodule mod;
            CUfunction fn;
            int regs = 0, st_smem = 0, max_threads = 0;
            if ((st = gb_gpu_module(&g, "occupancy.cu", opts, 3, &mod)) != GB_OK ||
                (st = gb_gpu_function(mod, "gb_occupancy_probe", &fn)) != GB_OK)
                goto out;
            GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
            GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&st_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn));
            GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&max_threads,
                                                      CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn));
            const int dyn_max = d->smem_per_block_optin - st_smem;
            const int dyn_values[] = {0, 1, 1024, 5000, 20480, d->smem_per_block - st_smem,
                                      65536, 100000, 150000, dyn_max};
            int dyn_ok[N_OF(dyn_values)], n_dyn = 0;
            for (size_t k = 0; k < N_OF(dyn_values); k++)
                if (dyn_values[k] >= 0 && dyn_values[k] <= dyn_max)
                    dyn_ok[n_dyn++] = dyn_values[k];
            modules++;
            fprintf(f, "# variant %d: %s %s %s -> regs=%d static_smem=%d max_threads_per_block=%d\n",
                    modules, o[0], o[1], o[2], regs, st_smem, max_threads);
            for (size_t ti = 0; ti < N_OF(gb_truth_threads); ti++) {
                for (size_t ci = 0; ci < N_OF(gb_truth_carveout); ci++) {
                    /* Two dynamic sizes per (block, carveout), spread over the
                     * list; the second with the kernel's maximum opted in to
                     * the whole remaining opt-in space. */
                    int k1 = (int)((modules * 7 + ti * 3 + ci) % (size_t)n_dyn);
                    int k2 = (int)((modules * 5 + ti + ci * 3 + 4) % (size_t)n_dyn);
                    if (k2 == k1)
                        k2 = (k1 + 1) % n_dyn;
                    for (int pass = 0; pass < 2; pass++) {
                        int dyn = dyn_ok[pass ? k2 : k1];
                        int want_max = pass ? dyn_max : dyn;
                        int carve = gb_truth_carveout[ci], got_max = -1, got_carve = -2, blocks = -1;
                        CUresult r = gb_cu->cuFuncSetAttribute(
                            fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carve);
                        if (r == CUDA_SUCCESS)
                            r = gb_cu->cuFuncSetAttribute(
                                fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, want_max);
                        if (r == CUDA_SUCCESS)
                            r = gb_cu->cuFuncGetAttribute(
                                &got_max, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, fn);
                        if (r == CUDA_SUCCESS)
                            r = gb_cu->cuFuncGetAttribute(
                                &got_carve, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, fn);
                        if (r == CUDA_SUCCESS)
                            r = gb_cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(
                                &blocks, fn, gb_truth_threads[ti], (size_t)dyn);
                        if (r != CUDA_SUCCESS) {
                            /* A configuration the driver refuses has no
                             * answer to compare with: counted, not written. */
                            if (!first_err[0]) {
                                const char *es = NULL;
                                gb_cu->cuGetErrorName(r, &es);
                                snprintf(first_err, sizeof first_err,
                                         "threads=%d regs=%d static=%d dyn=%d carveout=%d: %s",
                                         gb_truth_threads[ti], regs, st_smem, dyn, carve,
                                         es ? es : "error");
                            }
                            skipped++;
                            continue;
                        }
                        /* The row holds the attribute values as set; a
                         * driver that reads them back differently is noted. */
                        if ((got_max != want_max || got_carve != carve) && !readback_noted) {
                            fprintf(f, "# note: set max_dyn_smem=%d carveout=%d, the driver "
                                       "reads back %d and %d\n",
                                    want_max, carve, got_max, got_carve);
                            readback_noted = 1;
                        }
                        fprintf(f, "%s,%d.%d,%d,%d,%d,%d,%d,%d,%d\n", name, d->cc_major,
                                d->cc_minor, gb_truth_threads[ti], regs, st_smem, dyn, want_max,
                                carve, blocks);
                        rows++;
                    }
                }
            }
        }
    }
    if (fflush(f) != 0 || ferror(f)) {
        st = gb_error_set(GB_ERR_IO, "writing %s failed: %s", tmp, strerror(errno));
        goto out;
    }
    if (fclose(f) != 0) {
        f = NULL;
        st = gb_error_set(GB_ERR_IO, "writing %s failed: %s", tmp, strerror(errno));
        goto out;
    }
    f = NULL;
    if (rename(tmp, path) != 0) {
        st = gb_error_set(GB_ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        goto out;
    }
    {
        /* The recording's provenance beside it, as for every run: <path>.run.json. */
        struct gb_run_info info;
        char meta[4300];
        char nvrtc[32] = "";
        if (gb_nvrtc_version(nvrtc, sizeof nvrtc) != GB_OK)
            nvrtc[0] = '\0';
        gb_run_info_init(&info, gb_cli_command_line(), nvrtc);
        info.has_device = 1;
        info.device = *d;
        snprintf(info.cuda_driver, sizeof info.cuda_driver, "%d.%d", d->driver_version / 1000,
                 (d->driver_version % 1000) / 10);
        gb_gpu_driver_release(info.driver_release, sizeof info.driver_release);
        snprintf(info.started_utc, sizeof info.started_utc, "%s", when);
        gb_utc_now(info.finished_utc, sizeof info.finished_utc);
        info.complete = 1;
        info.points_ok = rows;
        info.modules_compiled = g.compiles;
        info.modules_cached = g.disk_hits;
        snprintf(meta, sizeof meta, "%s.run.json", path);
        FILE *mf = fopen(meta, "w");
        int ok = mf && gb_run_info_write_json(mf, &info) == GB_OK;
        if (mf && fclose(mf) != 0)
            ok = 0;
        if (!ok) {
            st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", meta, strerror(errno));
            goto out;
        }
    }
    fprintf(stderr, "gpubound occupancy: recorded %d configurations of %d compiled variants on %s "
                    "(cc %d.%d) to %s", rows, modules, name, d->cc_major, d->cc_minor, path);
    if (skipped)
        fprintf(stderr, "; %d the driver refused (first: %s)", skipped, first_err);
    fprintf(stderr, "\n");
out:
    if (f) {
        fclose(f);
        remove(tmp);
    } else if (st != GB_OK) {
        remove(tmp);
    }
    if (opened)
        gb_gpu_close(&g);
    if (st != GB_OK)
        return gb_cli_fail(st, "occupancy --record-truth",
                           st == GB_ERR_NO_GPU ? "recording needs an NVIDIA GPU and its driver" : NULL);
    return GB_EXIT_OK;
}

/* ---- the command ---- */

/* A non-negative integer no larger than `max`; -1 when `s` is not one. */
static long parse_count(const char *s, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > max)
        return -1;
    return v;
}

int gb_cmd_occupancy(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"threads", required_argument, NULL, 't'},  {"regs", required_argument, NULL, 'r'},
        {"smem", required_argument, NULL, 's'},     {"dyn-smem", required_argument, NULL, 'y'},
        {"carveout", required_argument, NULL, 'c'}, {"cc", required_argument, NULL, 'C'},
        {"device", required_argument, NULL, 'd'},   {"format", required_argument, NULL, 'f'},
        {"record-truth", required_argument, NULL, 'T'},
        {NULL, 0, NULL, 0},
    };
    struct gb_occupancy_input in = {-1, -1, -1, 0, -1, -1};
    struct gb_occupancy_result res;
    struct gb_device_info dev;
    enum gb_format fmt = GB_FORMAT_TABLE;
    enum gb_status st;
    const char *cc_arg = NULL, *truth = NULL;
    long device = -1, v;
    int c, cc_major = 0, cc_minor = 0, calc_opts = 0;

    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            /* The upper bound is the device's, checked once it is known. */
            if ((v = parse_count(optarg, INT_MAX)) < 1)
                return gb_cli_usage(CMD, "--threads needs a number of threads per block from 1 "
                                         "to 1024, not '%s'", optarg);
            in.threads_per_block = (int)v;
            calc_opts = 1;
            break;
        case 'r':
            if ((v = gb_cli_parse_long(CMD, "--regs", optarg, 0, 255)) < 0)
                return GB_EXIT_USAGE;
            in.regs_per_thread = (int)v;
            calc_opts = 1;
            break;
        case 's':
            if ((v = gb_cli_parse_long(CMD, "--smem", optarg, 0, 49152)) < 0)
                return GB_EXIT_USAGE;
            in.static_smem_bytes = (int)v;
            calc_opts = 1;
            break;
        case 'y':
            if ((v = parse_count(optarg, 1 << 30)) < 0)
                return gb_cli_usage(CMD, "--dyn-smem needs a number of bytes, 0 or more, not '%s'",
                                    optarg);
            in.dyn_smem_bytes = (int)v;
            calc_opts = 1;
            break;
        case 'c': {
            char *end;
            errno = 0;
            v = strtol(optarg, &end, 10);
            if (!*optarg || *end || errno || v < -1 || v > 100)
                return gb_cli_usage(CMD, "--carveout needs a percentage from 0 to 100, or -1 for "
                                         "the default, not '%s'", optarg);
            in.carveout_pct = (int)v;
            calc_opts = 1;
            break;
        }
        case 'C':
            if (gb_cli_parse_cc(optarg, &cc_major, &cc_minor) != 0)
                return gb_cli_usage(CMD, "--cc needs a compute capability X.Y such as 9.0, not '%s'",
                                    optarg);
            cc_arg = optarg;
            break;
        case 'd':
            if ((device = gb_cli_parse_long(CMD, "--device", optarg, 0, 1024)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 'f':
            if ((st = gb_format_parse(optarg, &fmt)) != GB_OK)
                return gb_cli_usage(CMD, "--format: %s", gb_error_message());
            break;
        case 'T':
            truth = optarg;
            break;
        case ':': return gb_cli_usage(CMD, "%s needs a value", argv[optind - 1]);
        default: return gb_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gb_cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
    if (cc_arg && device >= 0)
        return gb_cli_usage(CMD, "--cc and --device cannot be used together");

    if (truth) {
        if (cc_arg || calc_opts)
            return gb_cli_usage(CMD, "--record-truth takes only --device (it needs a real GPU)");
        return record_truth(truth, device < 0 ? 0 : (int)device);
    }

    if (in.threads_per_block < 0)
        return gb_cli_usage(CMD, "--threads is required");
    if (in.regs_per_thread < 0)
        return gb_cli_usage(CMD, "--regs is required");
    if (in.static_smem_bytes < 0)
        return gb_cli_usage(CMD, "--smem is required (0 when the kernel has no static shared memory)");

    if (cc_arg) {
        if ((st = gb_device_from_cc(cc_major, cc_minor, &dev)) != GB_OK)
            return gb_cli_usage(CMD, "--cc %s: %s", cc_arg, gb_error_message());
    } else {
        if (device < 0)
            device = 0;
        if ((st = gb_device_query((int)device, &dev)) != GB_OK) {
            char what[64];
            snprintf(what, sizeof what, "occupancy --device %ld", device);
            return gb_cli_fail(st, what,
                               st == GB_ERR_NO_GPU ? "use --cc X.Y to compute without a GPU" : NULL);
        }
    }

    if (in.threads_per_block > dev.max_threads_per_block)
        return gb_cli_usage(CMD, "--threads %d is more than the %d threads a block can have on "
                                 "compute capability %d.%d",
                            in.threads_per_block, dev.max_threads_per_block, dev.cc_major,
                            dev.cc_minor);
    if (in.regs_per_thread > dev.max_regs_per_thread)
        return gb_cli_usage(CMD, "--regs %d is more than the %d registers a thread can have",
                            in.regs_per_thread, dev.max_regs_per_thread);
    if (in.static_smem_bytes > dev.smem_per_block)
        return gb_cli_usage(CMD, "--smem %d is more than the %d bytes of static shared memory a "
                                 "block can have (use --dyn-smem for more)",
                            in.static_smem_bytes, dev.smem_per_block);
    {
        int limit = dev.smem_per_block_optin > dev.smem_per_block ? dev.smem_per_block_optin
                                                                  : dev.smem_per_block;
        if ((long)in.static_smem_bytes + in.dyn_smem_bytes > limit)
            return gb_cli_usage(CMD, "--smem %d + --dyn-smem %d = %ld bytes is more than the %d bytes "
                                     "of shared memory a block can have on compute capability %d.%d",
                                in.static_smem_bytes, in.dyn_smem_bytes,
                                (long)in.static_smem_bytes + in.dyn_smem_bytes, limit, dev.cc_major,
                                dev.cc_minor);
    }

    if ((st = gb_occupancy_compute(&dev, &in, &res)) != GB_OK)
        return gb_cli_fail(st, "occupancy", NULL);
    if (fmt == GB_FORMAT_TABLE)
        st = print_terminal(&dev, &in, &res);
    else
        st = print_machine(&dev, &in, &res, fmt);
    if (st != GB_OK)
        return gb_cli_fail(st, "occupancy", NULL);
    return GB_EXIT_OK;
}
