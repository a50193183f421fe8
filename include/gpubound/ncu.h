/* ncu.h - reading the CSV exports of NVIDIA Nsight Compute, so that counts a
 * profiler measured elsewhere can feed the models.
 *
 * Two layouts are read, both as `ncu --csv` writes them (with or without
 * `--import REPORT`):
 *   raw      (`--page raw`): a header row of fixed columns ("ID", "Kernel
 *            Name", "Block Size", ...) and one column per metric, named by
 *            the metric ("gpu__time_duration.sum"); then a row of units;
 *            then one row per profiled launch.
 *   details  (`--page details`, the default page): the fixed columns, then
 *            "Section Name", "Metric Name", "Metric Unit", "Metric Value":
 *            one row per metric and launch. Metrics asked for with
 *            `--metrics` appear under their own names; the launch
 *            statistics appear under their labels, of which "Duration",
 *            "Block Size", "Grid Size", "Registers Per Thread", "Static
 *            Shared Memory Per Block" and "Dynamic Shared Memory Per Block"
 *            are stored under the names of the metrics they show
 *            (gpu__time_duration.sum, launch__block_size, ...).
 * Lines before the header and lines beginning with "==" (the profiler's
 * own messages) are skipped. Values are numbers as ncu prints them in an
 * English locale ("1,048,576.50": commas group thousands), converted to
 * base units: times to nanoseconds, sizes to bytes, and counts with an SI
 * prefix ("Ksector") to plain counts, rates to per second ("Gbyte/second"
 * to bytes per second). A value that is not a number in that form ("n/a",
 * "1,,2", "1,2345", "nan") or that a double cannot hold ("1e999") reads
 * as NaN; the field's text is kept, so that a reader that needs the value
 * can say what was there (gb_ncu_range, src/results/validate.h).
 *
 * The reader does file I/O and nothing else; thread-safe on distinct
 * reports.
 */
#ifndef GPUBOUND_NCU_H
#define GPUBOUND_NCU_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/status.h"

struct gb_ncu_metric {
    char *name;        /* metric name ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") */
    char *unit;        /* the unit as printed ("usecond"), "" when none */
    char *text;        /* the field as printed ("2,097,152"); NULL when no export gave it */
    double value;      /* in base units (ns, bytes, counts); NaN when not a number */
};

/* One profiled kernel launch. */
struct gb_ncu_launch {
    long id;               /* the "ID" column */
    char *kernel;          /* the "Kernel Name" column */
    char *block;           /* the "Block Size" column, e.g. "(256, 1, 1)"; "" when absent */
    char *grid;            /* the "Grid Size" column; "" when absent */
    struct gb_ncu_metric *metrics;
    size_t n_metrics;
};

struct gb_ncu_report {
    int details;                 /* 1: the details layout, 0: raw */
    struct gb_ncu_launch *launches;  /* in file order */
    size_t n_launches;
};

/* Reads the CSV export at `path`. GB_ERR_IO when it cannot be read;
 * GB_ERR_FORMAT, with the file and line, when it has no header row with
 * "ID" and "Kernel Name", when a row has more or fewer fields than the
 * header, or when it holds no launch. Free with gb_ncu_free. */
GB_API enum gb_status gb_ncu_load(const char *path, struct gb_ncu_report **out);
GB_API void gb_ncu_free(struct gb_ncu_report *r);

/* The launch whose ID is `id` (the last one, should the ID repeat), or NULL. */
GB_API const struct gb_ncu_launch *gb_ncu_launch_by_id(const struct gb_ncu_report *r, long id);

/* The metric `name` of launch `l`, or NULL. */
GB_API const struct gb_ncu_metric *gb_ncu_find(const struct gb_ncu_launch *l, const char *name);

/* The value of metric `name`, or `fallback` when absent or not a number. */
GB_API double gb_ncu_value(const struct gb_ncu_launch *l, const char *name, double fallback);

/* The product of the dimensions of a size column ("(32, 8, 1)" -> 256),
 * or -1 when `s` is not such a tuple. */
GB_API long gb_ncu_dim_product(const char *s);

#endif
