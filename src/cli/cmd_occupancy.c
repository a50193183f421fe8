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
#include "cli/cmd_occupancy.h"
#include "gpubound/device.h"
#include "gpubound/occupancy.h"
#include "gpubound/report.h"
#include "gpubound/session.h"

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

/* The max-dynamic-shared-memory attribute `in` stands for, in bytes. */
static int max_dyn_attribute(const struct gb_device_info *dev, const struct gb_occupancy_input *in)
{
    switch (in->max_dyn_smem_bytes) {
    case GB_OCC_MAX_DYN_AS_REQUESTED: return in->dyn_smem_bytes;
    case GB_OCC_MAX_DYN_UNSET:
        return dev->smem_per_block > in->static_smem_bytes ? dev->smem_per_block - in->static_smem_bytes : 0;
    default: return in->max_dyn_smem_bytes;
    }
}

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
           "(static + dynamic), carveout %s\n",
           in->threads_per_block, r->warps_per_block, in->regs_per_thread, in->static_smem_bytes,
           in->dyn_smem_bytes, buf);
    const int attr = max_dyn_attribute(dev, in);
    if (in->max_dyn_smem_bytes != GB_OCC_MAX_DYN_AS_REQUESTED)
        printf("  max dynamic shared memory attribute: %d bytes%s\n", attr,
               in->max_dyn_smem_bytes == GB_OCC_MAX_DYN_UNSET ? " (the driver's default)" : "");
    printf("\n");
    printf("  active blocks per SM  %d\n", r->active_blocks);
    printf("  active warps per SM   %d of %d\n", r->active_warps, r->max_warps);
    printf("  occupancy             %.4g%%\n", 100.0 * r->occupancy);
    limits_text(r->limits, buf, sizeof buf);
    printf("  limited by            %s%s\n\n", buf,
           r->active_blocks > 0 ? ""
           : in->dyn_smem_bytes > attr ? " (the launch asks more dynamic shared memory than the kernel's "
                                         "attribute allows: the driver refuses it)"
                                       : " (the block cannot run)");

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

/* ---- the truth-table recorder (the work is the library's: session.h) ---- */

static int record_truth(const char *path, int ordinal)
{
    struct gb_session s;
    struct gb_truth_summary sum;
    enum gb_status st = gb_session_open(&s, ordinal, gb_cli_command_line(), 0);
    if (st == GB_OK)
        st = gb_session_record_occupancy_truth(&s, path, &sum);
    gb_session_close(&s);
    if (st != GB_OK)
        return gb_cli_fail(st, "occupancy --record-truth",
                           st == GB_ERR_NO_GPU ? "recording needs an NVIDIA GPU and its driver" : NULL);
    fprintf(stderr, "gpubound occupancy: recorded %d configurations of %d compiled variants on %s "
                    "(cc %d.%d) to %s", sum.rows, sum.modules, sum.device_name, s.info.device.cc_major,
            s.info.device.cc_minor, path);
    if (sum.skipped)
        fprintf(stderr, "; %d the driver refused (first: %s)", sum.skipped, sum.first_refusal);
    fprintf(stderr, "\n");
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

/* The command's options as given. */
struct occ_args {
    struct gb_occupancy_input in;
    enum gb_format fmt;
    const char *cc_arg, *truth;
    long device;
    int cc_major, cc_minor, calc_opts;
};

/* The calculator's inputs; returns -1 when taken, else the exit code. */
static int parse_input_option(int c, const char *arg, struct occ_args *a)
{
    long v;
    a->calc_opts = 1;
    switch (c) {
    case 't':
        /* The upper bound is the device's, checked once it is known. */
        if ((v = parse_count(arg, INT_MAX)) < 1)
            return gb_cli_usage(CMD, "--threads needs a number of threads per block from 1 "
                                     "to 1024, not '%s'", arg);
        a->in.threads_per_block = (int)v;
        return -1;
    case 'r':
        if ((v = gb_cli_parse_long(CMD, "--regs", arg, 0, 255)) < 0)
            return GB_EXIT_USAGE;
        a->in.regs_per_thread = (int)v;
        return -1;
    case 's':
        if ((v = gb_cli_parse_long(CMD, "--smem", arg, 0, 49152)) < 0)
            return GB_EXIT_USAGE;
        a->in.static_smem_bytes = (int)v;
        return -1;
    case 'y':
        if ((v = parse_count(arg, 1 << 30)) < 0)
            return gb_cli_usage(CMD, "--dyn-smem needs a number of bytes, 0 or more, not '%s'", arg);
        a->in.dyn_smem_bytes = (int)v;
        return -1;
    case 'm':
        if (strcmp(arg, "default") == 0)
            v = GB_OCC_MAX_DYN_UNSET;
        else if ((v = parse_count(arg, 1 << 30)) < 0)
            return gb_cli_usage(CMD, "--max-dyn-smem needs a number of bytes, 0 or more, or 'default', "
                                     "not '%s'", arg);
        a->in.max_dyn_smem_bytes = (int)v;
        return -1;
    default: {
        char *end;
        errno = 0;
        v = strtol(arg, &end, 10);
        if (!*arg || *end || errno || v < -1 || v > 100)
            return gb_cli_usage(CMD, "--carveout needs a percentage from 0 to 100, or -1 for "
                                     "the default, not '%s'", arg);
        a->in.carveout_pct = (int)v;
        return -1;
    }
    }
}

/* Returns -1 when the option was taken, else the exit code. */
static int parse_option(int c, char **argv, struct occ_args *a)
{
    enum gb_status st;
    switch (c) {
    case 't': case 'r': case 's': case 'y': case 'c': case 'm':
        return parse_input_option(c, optarg, a);
    case 'C':
        if (gb_cli_parse_cc(optarg, &a->cc_major, &a->cc_minor) != 0)
            return gb_cli_usage(CMD, "--cc needs a compute capability X.Y such as 9.0, not '%s'", optarg);
        a->cc_arg = optarg;
        return -1;
    case 'd':
        if ((a->device = gb_cli_parse_range(CMD, "--device", optarg, GB_RANGE_ORDINAL, 0)) < 0)
            return GB_EXIT_USAGE;
        return -1;
    case 'f':
        if ((st = gb_format_parse(optarg, &a->fmt)) != GB_OK)
            return gb_cli_usage(CMD, "--format: %s", gb_error_message());
        return -1;
    case 'T':
        a->truth = optarg;
        return -1;
    case ':': return gb_cli_usage(CMD, "%s needs a value", argv[optind - 1]);
    default: return gb_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
    }
}

/* Returns -1 when the arguments are whole, else the exit code. */
static int parse_args(int argc, char **argv, struct occ_args *a)
{
    static const struct option longopts[] = {
        {"threads", required_argument, NULL, 't'},  {"regs", required_argument, NULL, 'r'},
        {"smem", required_argument, NULL, 's'},     {"dyn-smem", required_argument, NULL, 'y'},
        {"carveout", required_argument, NULL, 'c'}, {"cc", required_argument, NULL, 'C'},
        {"device", required_argument, NULL, 'd'},   {"format", required_argument, NULL, 'f'},
        {"record-truth", required_argument, NULL, 'T'},
        {"max-dyn-smem", required_argument, NULL, 'm'},
        {NULL, 0, NULL, 0},
    };
    const struct gb_occupancy_input unset = {-1, -1, -1, 0, -1, -1};
    int c, rc;
    memset(a, 0, sizeof *a);
    a->in = unset;
    a->fmt = GB_FORMAT_TABLE;
    a->device = -1;
    if ((c = gb_cli_options_once(CMD, argc, argv, ":", longopts, NULL)) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1)
        if ((rc = parse_option(c, argv, a)) >= 0)
            return rc;
    if (optind < argc)
        return gb_cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
    if (a->cc_arg && a->device >= 0)
        return gb_cli_usage(CMD, "--cc and --device cannot be used together");
    if (a->truth && (a->cc_arg || a->calc_opts))
        return gb_cli_usage(CMD, "--record-truth takes only --device (it needs a real GPU)");
    if (a->truth)
        return -1;
    if (a->in.threads_per_block < 0)
        return gb_cli_usage(CMD, "--threads is required");
    if (a->in.regs_per_thread < 0)
        return gb_cli_usage(CMD, "--regs is required");
    if (a->in.static_smem_bytes < 0)
        return gb_cli_usage(CMD, "--smem is required (0 when the kernel has no static shared memory)");
    return -1;
}

/* The device's limits, from --cc or a GPU; -1 on success, else the exit code. */
static int resolve_device(const struct occ_args *a, struct gb_device_info *dev)
{
    enum gb_status st;
    if (a->cc_arg) {
        if ((st = gb_device_from_cc(a->cc_major, a->cc_minor, dev)) != GB_OK)
            return gb_cli_usage(CMD, "--cc %s: %s", a->cc_arg, gb_error_message());
        return -1;
    }
    long device = a->device < 0 ? 0 : a->device;
    if ((st = gb_device_query((int)device, dev)) != GB_OK) {
        char what[64];
        snprintf(what, sizeof what, "occupancy --device %ld", device);
        return gb_cli_fail(st, what, st == GB_ERR_NO_GPU ? "use --cc X.Y to compute without a GPU" : NULL);
    }
    return -1;
}

/* The inputs against the device's limits; -1 when they fit, else the exit code. */
static int check_input(const struct gb_device_info *dev, const struct gb_occupancy_input *in)
{
    int limit = dev->smem_per_block_optin > dev->smem_per_block ? dev->smem_per_block_optin : dev->smem_per_block;
    if (in->threads_per_block > dev->max_threads_per_block)
        return gb_cli_usage(CMD, "--threads %d is more than the %d threads a block can have on "
                                 "compute capability %d.%d",
                            in->threads_per_block, dev->max_threads_per_block, dev->cc_major, dev->cc_minor);
    if (in->regs_per_thread > dev->max_regs_per_thread)
        return gb_cli_usage(CMD, "--regs %d is more than the %d registers a thread can have",
                            in->regs_per_thread, dev->max_regs_per_thread);
    if (in->static_smem_bytes > dev->smem_per_block)
        return gb_cli_usage(CMD, "--smem %d is more than the %d bytes of static shared memory a "
                                 "block can have (use --dyn-smem for more)",
                            in->static_smem_bytes, dev->smem_per_block);
    if ((long)in->static_smem_bytes + in->dyn_smem_bytes > limit)
        return gb_cli_usage(CMD, "--smem %d + --dyn-smem %d = %ld bytes is more than the %d bytes "
                                 "of shared memory a block can have on compute capability %d.%d",
                            in->static_smem_bytes, in->dyn_smem_bytes,
                            (long)in->static_smem_bytes + in->dyn_smem_bytes, limit, dev->cc_major,
                            dev->cc_minor);
    if ((long)in->static_smem_bytes + in->max_dyn_smem_bytes > limit)
        return gb_cli_usage(CMD, "--max-dyn-smem %d is more than the %ld bytes a kernel with --smem %d "
                                 "can opt in to on compute capability %d.%d",
                            in->max_dyn_smem_bytes, (long)limit - in->static_smem_bytes,
                            in->static_smem_bytes, dev->cc_major, dev->cc_minor);
    return -1;
}

int gb_cmd_occupancy(int argc, char **argv)
{
    struct occ_args a;
    struct gb_occupancy_result res;
    struct gb_device_info dev;
    enum gb_status st;
    int rc;
    if ((rc = parse_args(argc, argv, &a)) >= 0)
        return rc;
    if (a.truth)
        return record_truth(a.truth, a.device < 0 ? 0 : (int)a.device);
    if ((rc = resolve_device(&a, &dev)) >= 0 || (rc = check_input(&dev, &a.in)) >= 0)
        return rc;
    if ((st = gb_occupancy_compute(&dev, &a.in, &res)) != GB_OK)
        return gb_cli_fail(st, "occupancy", NULL);
    if (a.fmt == GB_FORMAT_TABLE)
        st = print_terminal(&dev, &a.in, &res);
    else
        st = print_machine(&dev, &a.in, &res, a.fmt);
    if (st != GB_OK)
        return gb_cli_fail(st, "occupancy", NULL);
    return GB_EXIT_OK;
}
