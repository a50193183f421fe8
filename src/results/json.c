/* json.c - records and run metadata to and from JSON, through jansson.
 * The one place that knows the field names of results-format.md. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/json.h"
#include "results/validate.h"
#include "util/fs.h"

json_t *gb_json_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A time object (time_ns, batch_time_ns): the statistics under their own names. */
static json_t *gb_time_stats_to_json(const struct gb_time_stats *t)
{
    json_t *o = json_object();
#define GB_TS_SET(f) json_object_set_new(o, #f, gb_json_real(t->f));
    GB_TIME_STATS(GB_TS_SET)
#undef GB_TS_SET
    return o;
}

json_t *gb_record_to_json(const struct gb_record *r)
{
    json_t *o = json_object(), *axes = json_object(), *m = json_object();
    for (int i = 0; i < r->n_axes; i++)
        json_object_set_new(axes, r->axes[i].name, json_string(r->axes[i].value));
    for (int i = 0; i < r->n_metrics; i++)
        json_object_set_new(m, r->metrics[i].name, gb_json_real(r->metrics[i].value));
    json_object_set_new(o, "suite", json_string(r->suite));
    json_object_set_new(o, "bench", json_string(r->bench));
    json_object_set_new(o, "axes", axes);
    json_object_set_new(o, "status", json_string(gb_record_status_name(r->status)));
    json_object_set_new(o, "reason", json_string(r->reason));
    json_object_set_new(o, "cache", json_string(gb_cache_mode_name(r->cache)));
    json_object_set_new(o, "samples", json_integer(r->samples));
    json_object_set_new(o, "converged", json_boolean(r->converged));
    json_object_set_new(o, "batch", json_integer(r->batch));
    json_object_set_new(o, "time_source", r->time_source[0] ? json_string(r->time_source) : json_null());
    if (r->cold_flush[0])
        json_object_set_new(o, "cold_flush", json_string(r->cold_flush));
    if (r->isolate_s > 0)
        json_object_set_new(o, "isolate_s", gb_json_real(r->isolate_s));
    json_object_set_new(o, "time_ns", gb_time_stats_to_json(&r->time_ns));
    /* The batch time: null when the point was not batched. */
    json_object_set_new(o, "batch_time_ns", r->batch > 1 ? gb_time_stats_to_json(&r->batch_time_ns) : json_null());
    json_object_set_new(o, "bytes", gb_json_real(r->bytes));
    json_object_set_new(o, "flops", gb_json_real(r->flops));
    json_object_set_new(o, "bw_gbs", gb_json_real(r->bw_gbs));
    json_object_set_new(o, "gflops", gb_json_real(r->gflops));
    json_object_set_new(o, "sm_mhz_before", gb_json_real(r->sm_mhz_before));
    json_object_set_new(o, "sm_mhz_after", gb_json_real(r->sm_mhz_after));
    json_object_set_new(o, "throttled", json_boolean(r->throttled));
    json_object_set_new(o, "wall_s", gb_json_real(r->wall_s));
    json_object_set_new(o, "timed_s", gb_json_real(r->timed_s));
    json_object_set_new(o, "metrics", m);
    if (r->compile_log)
        json_object_set_new(o, "compile_log", json_string(r->compile_log));
    if (r->counters.n > 0)
        json_object_set_new(o, "counters", gb_counters_to_json(&r->counters));
    if (r->fleet)
        json_object_set_new(o, "fleet", json_pack("{s:i, s:s, s:s}", "rank", r->fleet_rank, "host",
                                                  r->fleet_host, "gpu_uuid", r->gpu_uuid));
    return o;
}

/* Readers. Every number goes through the range table (validate.h): a
 * missing or null number reads as NAN (an int as 0), a wrong type or a
 * value out of range is a violation naming the file and the JSON path. */
struct gb_jr {
    const char *file;
    const char *path;            /* JSON path of the object read, "$[3]" */
    char *why;
    size_t n;
};

static int gb_jr_real(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id,
                      double *out)
{
    return gb_json_range_real(o, key, id, out, j->file, j->path, j->why, j->n);
}

static int gb_jr_int(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id, int *out)
{
    long long v;
    if (gb_json_range_int(o, key, id, 0, &v, j->file, j->path, j->why, j->n))
        return -1;
    *out = (int)v; /* every integer range fits an int */
    return 0;
}

/* A string member; absent reads as "" (an error when required). A string
 * longer than the field is refused, not cut. */
static int gb_jr_str(const struct gb_jr *j, json_t *o, const char *key, char *buf, size_t n, int required)
{
    json_t *v = json_object_get(o, key);
    buf[0] = '\0';
    if (!v) {
        if (required)
            snprintf(j->why, j->n, "%s: %s%s%s is missing (a string is required)", j->file, j->path,
                     j->path[0] ? "." : "", key);
        return required ? -1 : 0;
    }
    if (!json_is_string(v) || strlen(json_string_value(v)) >= n) {
        snprintf(j->why, j->n, "%s: %s%s%s is %s: a string of at most %zu characters is allowed",
                 j->file, j->path, j->path[0] ? "." : "", key,
                 json_is_string(v) ? "too long" : "not a string", n - 1);
        return -1;
    }
    snprintf(buf, n, "%s", json_string_value(v));
    return 0;
}

/* The time object `key` of `o` (time_ns or batch_time_ns) into `t`: absent
 * or null leaves every statistic NAN; anything but an object is refused. */
static int gb_jr_times(const struct gb_jr *j, json_t *o, const char *key, struct gb_time_stats *t)
{
    json_t *v = json_object_get(o, key);
    char path[128];
    struct gb_jr sub = *j;
    gb_time_stats_clear(t);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_object(v)) {
        snprintf(j->why, j->n, "%s: %s.%s is not an object or null", j->file, j->path, key);
        return -1;
    }
    snprintf(path, sizeof path, "%s.%s", j->path, key);
    sub.path = path;
#define GB_TS_READ(f) if (gb_jr_real(&sub, v, #f, GB_RANGE_TIME_NS, &t->f)) return -1;
    GB_TIME_STATS(GB_TS_READ)
#undef GB_TS_READ
    return 0;
}

/* time_source and batch_time_ns. A record written before they existed was
 * timed by events: around a graph of `batch` launches when batch > 1, and
 * then its times are the batch times. */
static int gb_time_source_from_json(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    json_t *src = json_object_get(o, "time_source"), *b = json_object_get(o, "batch_time_ns");
    if (src && !json_is_null(src) &&
        gb_jr_str(j, o, "time_source", r->time_source, sizeof r->time_source, 0))
        return -1;
    if (gb_jr_str(j, o, "cold_flush", r->cold_flush, sizeof r->cold_flush, 0) ||
        gb_jr_real(j, o, "isolate_s", GB_RANGE_SECONDS, &r->isolate_s))
        return -1;
    if (isnan(r->isolate_s))
        r->isolate_s = 0;
    if (gb_jr_times(j, o, "batch_time_ns", &r->batch_time_ns))
        return -1;
    if (src || r->status != GB_REC_OK)
        return 0;
    snprintf(r->time_source, sizeof r->time_source, "%s", r->batch > 1 ? "events-graph" : "events");
    if (r->batch > 1 && !b)
        r->batch_time_ns = r->time_ns;
    return 0;
}

/* compile_log: absent or null (none), or a string of at most GB_COMPILE_LOG_MAX bytes. */
static int gb_compile_log_from_json(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    json_t *v = json_object_get(o, "compile_log");
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v) || json_string_length(v) >= GB_COMPILE_LOG_MAX) {
        snprintf(j->why, j->n, "%s: %s.compile_log is %s: a string of at most %d characters is allowed",
                 j->file, j->path, json_is_string(v) ? "too long" : "not a string", GB_COMPILE_LOG_MAX - 1);
        return -1;
    }
    if (gb_record_set_compile_log(r, json_string_value(v)) != GB_OK) {
        snprintf(j->why, j->n, "%s: %s.compile_log: %s", j->file, j->path, gb_error_message());
        return -1;
    }
    return 0;
}

/* suite, bench, status, reason and cache. */
static int gb_record_names(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    static const char *const st_names[] = {"ok", "failed", "skipped", "error"};
    char status[32], cache[16];
    if (gb_jr_str(j, o, "suite", r->suite, sizeof r->suite, 1) ||
        gb_jr_str(j, o, "bench", r->bench, sizeof r->bench, 1) ||
        gb_jr_str(j, o, "status", status, sizeof status, 1) ||
        gb_jr_str(j, o, "reason", r->reason, sizeof r->reason, 0) ||
        gb_jr_str(j, o, "cache", cache, sizeof cache, 0))
        return -1;
    int k = 0;
    while (k < 4 && strcmp(status, st_names[k]) != 0)
        k++;
    if (k == 4) {
        snprintf(j->why, j->n, "%s: %s.status = \"%s\": allowed ok, failed, skipped or error",
                 j->file, j->path, status);
        return -1;
    }
    r->status = (enum gb_record_status)k;
    if (cache[0] && strcmp(cache, "cold") && strcmp(cache, "hot")) {
        snprintf(j->why, j->n, "%s: %s.cache = \"%s\": allowed hot or cold", j->file, j->path, cache);
        return -1;
    }
    r->cache = strcmp(cache, "cold") == 0 ? GB_CACHE_COLD : GB_CACHE_HOT;
    return 0;
}

/* axes (strings) and metrics (finite numbers or null), every one kept. */
static int gb_record_maps(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    json_t *axes = json_object_get(o, "axes"), *m = json_object_get(o, "metrics"), *v;
    const char *key;
    char path[128];
    struct gb_jr sub = *j;
    sub.path = path;
    if ((axes && !json_is_object(axes) && !json_is_null(axes)) || (m && !json_is_object(m) && !json_is_null(m))) {
        snprintf(j->why, j->n, "%s: %s.%s is not an object", j->file, j->path,
                 axes && !json_is_object(axes) && !json_is_null(axes) ? "axes" : "metrics");
        return -1;
    }
    json_object_foreach(axes, key, v) {
        if (!json_is_string(v) || gb_record_set_axis(r, key, json_string_value(v)) != GB_OK) {
            snprintf(j->why, j->n, "%s: %s.axes.%.40s is %s", j->file, j->path, key,
                     json_is_string(v) ? "too long (names under 32, values under 64 characters)"
                                       : "not a string");
            return -1;
        }
    }
    snprintf(path, sizeof path, "%s.metrics", j->path);
    json_object_foreach(m, key, v) {
        double x = NAN;
        if (gb_jr_real(&sub, m, key, GB_RANGE_METRIC, &x))
            return -1;
        if (gb_record_set_metric(r, key, x) != GB_OK) {
            snprintf(j->why, j->n, "%s: %s.%.40s: %s", j->file, path, key, gb_error_message());
            return -1;
        }
    }
    return 0;
}

/* The fleet section of a record (rank, host, GPU), when there is one. */
static int gb_record_fleet(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    json_t *f = json_object_get(o, "fleet");
    char path[128];
    struct gb_jr sub = *j;
    if (!f || json_is_null(f))
        return 0;
    snprintf(path, sizeof path, "%s.fleet", j->path);
    sub.path = path;
    if (!json_is_object(f)) {
        snprintf(j->why, j->n, "%s: %s is not an object", j->file, path);
        return -1;
    }
    r->fleet = 1;
    return gb_jr_int(&sub, f, "rank", GB_RANGE_POINTS, &r->fleet_rank) ||
           gb_jr_str(&sub, f, "host", r->fleet_host, sizeof r->fleet_host, 1) ||
           gb_jr_str(&sub, f, "gpu_uuid", r->gpu_uuid, sizeof r->gpu_uuid, 0);
}

static int gb_record_fill(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    if (!json_is_object(o)) {
        snprintf(j->why, j->n, "%s: %s is not a JSON object (a record)", j->file, j->path);
        return -1;
    }
    if (gb_record_names(j, o, r) || gb_record_maps(j, o, r) ||
        gb_counters_from_json(json_object_get(o, "counters"), &r->counters, j->file, j->path, j->why, j->n))
        return -1;
    if (gb_jr_times(j, o, "time_ns", &r->time_ns) ||
        gb_jr_int(j, o, "samples", GB_RANGE_SAMPLES, &r->samples) ||
        gb_jr_int(j, o, "converged", GB_RANGE_FLAG, &r->converged) ||
        gb_jr_int(j, o, "batch", GB_RANGE_BATCH, &r->batch) ||
        gb_jr_int(j, o, "throttled", GB_RANGE_FLAG, &r->throttled) ||
        gb_jr_real(j, o, "bytes", GB_RANGE_BYTES, &r->bytes) ||
        gb_jr_real(j, o, "flops", GB_RANGE_FLOPS, &r->flops) ||
        gb_jr_real(j, o, "bw_gbs", GB_RANGE_GBS, &r->bw_gbs) ||
        gb_jr_real(j, o, "gflops", GB_RANGE_GFLOPS, &r->gflops) ||
        gb_jr_real(j, o, "sm_mhz_before", GB_RANGE_MHZ, &r->sm_mhz_before) ||
        gb_jr_real(j, o, "sm_mhz_after", GB_RANGE_MHZ, &r->sm_mhz_after) ||
        gb_jr_real(j, o, "wall_s", GB_RANGE_SECONDS, &r->wall_s) ||
        gb_jr_real(j, o, "timed_s", GB_RANGE_SECONDS, &r->timed_s) ||
        gb_record_samples_from_json(o, r, j->file, j->path, j->why, j->n) || gb_record_fleet(j, o, r))
        return -1;
    return gb_time_source_from_json(j, o, r) || gb_compile_log_from_json(j, o, r);
}

int gb_record_from_json(json_t *o, struct gb_record *r, const char *file, const char *path,
                        char *why, size_t n)
{
    const struct gb_jr j = {.file = file, .path = path, .why = why, .n = n};
    memset(r, 0, sizeof *r);
    if (gb_record_fill(&j, o, r) == 0)
        return 0;
    gb_record_release(r);
    return -1;
}

json_t *gb_device_to_json(const struct gb_device_info *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "ordinal", json_integer(d->ordinal));
    json_object_set_new(o, "name", json_string(d->name));
    json_object_set_new(o, "uuid", json_string(d->uuid));
    json_object_set_new(o, "pci_bus_id", json_string(d->pci_bus_id));
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    json_object_set_new(o, "compute_capability", json_string(cc));
#define GB_DEV_INT(f) json_object_set_new(o, #f, json_integer(d->f));
    GB_DEVICE_INT_FIELDS(GB_DEV_INT)
#undef GB_DEV_INT
    json_object_set_new(o, "max_block_dim", json_pack("[iii]", d->max_block_dim[0], d->max_block_dim[1], d->max_block_dim[2]));
    json_object_set_new(o, "max_grid_dim", json_pack("[iii]", d->max_grid_dim[0], d->max_grid_dim[1], d->max_grid_dim[2]));
    json_object_set_new(o, "mem_peak_gbs", gb_json_real(d->mem_peak_gbs));
    json_object_set_new(o, "l2_bytes", json_integer(d->l2_bytes));
    json_object_set_new(o, "total_mem_bytes", json_integer(d->total_mem_bytes));
    return o;
}

/* The range of each integer device field. */
#define GB_DEV_RANGE_sm_count GB_RANGE_SM_COUNT
#define GB_DEV_RANGE_warp_size GB_RANGE_WARP_SIZE
#define GB_DEV_RANGE_max_threads_per_block GB_RANGE_THREADS_PER_BLOCK
#define GB_DEV_RANGE_max_threads_per_sm GB_RANGE_THREADS_PER_SM
#define GB_DEV_RANGE_max_blocks_per_sm GB_RANGE_BLOCKS_PER_SM
#define GB_DEV_RANGE_regs_per_sm GB_RANGE_REGS
#define GB_DEV_RANGE_regs_per_block GB_RANGE_REGS
#define GB_DEV_RANGE_max_regs_per_thread GB_RANGE_REGS_PER_THREAD
#define GB_DEV_RANGE_reg_alloc_unit GB_RANGE_REG_ALLOC_UNIT
#define GB_DEV_RANGE_smem_per_sm GB_RANGE_SMEM
#define GB_DEV_RANGE_smem_per_block GB_RANGE_SMEM
#define GB_DEV_RANGE_smem_per_block_optin GB_RANGE_SMEM
#define GB_DEV_RANGE_smem_reserved_per_block GB_RANGE_SMEM
#define GB_DEV_RANGE_smem_alloc_unit GB_RANGE_SMEM_UNIT
#define GB_DEV_RANGE_sm_clock_max_mhz GB_RANGE_MHZ
#define GB_DEV_RANGE_mem_clock_max_mhz GB_RANGE_MHZ
#define GB_DEV_RANGE_mem_bus_width_bits GB_RANGE_BUS_BITS
#define GB_DEV_RANGE_ecc_enabled GB_RANGE_FLAG
#define GB_DEV_RANGE_driver_version GB_RANGE_DRIVER_VERSION

/* max_block_dim or max_grid_dim: absent or an array of three integers. */
static int gb_dev_dims(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id, int dim[3])
{
    json_t *a = json_object_get(o, key);
    char field[160];
    if (!a || json_is_null(a))
        return 0;
    if (!json_is_array(a) || json_array_size(a) != 3) {
        snprintf(j->why, j->n, "%s: %s.%s is not an array of three integers", j->file, j->path, key);
        return -1;
    }
    for (size_t i = 0; i < 3; i++) {
        long long v;
        snprintf(field, sizeof field, "%s.%s[%zu]", j->path, key, i);
        if (gb_json_value_int(json_array_get(a, i), id, &v, j->file, field, j->why, j->n))
            return -1;
        dim[i] = (int)v;
    }
    return 0;
}

static int gb_dev_fill(const struct gb_jr *j, json_t *o, struct gb_device_info *d)
{
    char cc[16];
    long long l2, mem;
    if (!json_is_object(o)) {
        snprintf(j->why, j->n, "%s: %s is not an object", j->file, j->path);
        return -1;
    }
    if (gb_jr_str(j, o, "name", d->name, sizeof d->name, 1) ||
        gb_jr_str(j, o, "uuid", d->uuid, sizeof d->uuid, 0) ||
        gb_jr_str(j, o, "pci_bus_id", d->pci_bus_id, sizeof d->pci_bus_id, 0) ||
        gb_jr_str(j, o, "compute_capability", cc, sizeof cc, 1) ||
        gb_jr_int(j, o, "ordinal", GB_RANGE_ORDINAL, &d->ordinal))
        return -1;
    char tail;
    if (sscanf(cc, "%2d.%2d%c", &d->cc_major, &d->cc_minor, &tail) != 2 || d->cc_major < 1 ||
        d->cc_minor < 0) {
        snprintf(j->why, j->n, "%s: %s.compute_capability = \"%s\": allowed MAJOR.MINOR, each 0 to 99",
                 j->file, j->path, cc);
        return -1;
    }
#define GB_DEV_INT(f) if (gb_jr_int(j, o, #f, GB_DEV_RANGE_##f, &d->f)) return -1;
    GB_DEVICE_INT_FIELDS(GB_DEV_INT)
#undef GB_DEV_INT
    if (gb_dev_dims(j, o, "max_block_dim", GB_RANGE_BLOCK_DIM, d->max_block_dim) ||
        gb_dev_dims(j, o, "max_grid_dim", GB_RANGE_GRID_DIM, d->max_grid_dim) ||
        gb_jr_real(j, o, "mem_peak_gbs", GB_RANGE_GBS, &d->mem_peak_gbs) ||
        gb_json_range_int(o, "l2_bytes", GB_RANGE_L2_BYTES, 0, &l2, j->file, j->path, j->why, j->n) ||
        gb_json_range_int(o, "total_mem_bytes", GB_RANGE_MEM_BYTES, 0, &mem, j->file, j->path, j->why, j->n))
        return -1;
    d->l2_bytes = l2;
    d->total_mem_bytes = mem;
    return 0;
}

int gb_device_from_json(json_t *o, struct gb_device_info *d, const char *file, const char *path,
                        char *why, size_t n)
{
    const struct gb_jr j = {.file = file, .path = path, .why = why, .n = n};
    memset(d, 0, sizeof *d);
    return gb_dev_fill(&j, o, d);
}

/* Where the run's wall time went; the remainder is the tool's own work
 * between points (planning, progress output). */
static json_t *gb_wall_parts_to_json(const struct gb_run_info *in)
{
    const struct gb_wall_parts *w = &in->parts;
    json_t *o = json_object();
    json_object_set_new(o, "start_s", gb_json_real(w->start_s));
    json_object_set_new(o, "compile_s", gb_json_real(w->compile_s));
    json_object_set_new(o, "setup_s", gb_json_real(w->setup_s));
    json_object_set_new(o, "verify_s", gb_json_real(w->verify_s));
    json_object_set_new(o, "warmup_s", gb_json_real(w->warmup_s));
    json_object_set_new(o, "sampling_s", gb_json_real(w->sampling_s));
    json_object_set_new(o, "timed_s", gb_json_real(in->timed_s));
    json_object_set_new(o, "flush_s", gb_json_real(w->flush_s));
    json_object_set_new(o, "teardown_s", gb_json_real(w->teardown_s));
    json_object_set_new(o, "write_s", gb_json_real(in->write_s));
    json_object_set_new(o, "other_s", gb_json_real(gb_run_info_other_s(in)));
    return o;
}

json_t *gb_run_info_to_json(const struct gb_run_info *in)
{
    json_t *o = json_object();
    json_object_set_new(o, "format", json_string("gpubound-run/1"));
    json_object_set_new(o, "tool", json_pack("{s:s, s:s, s:s}", "name", "gpubound", "version",
                                             in->tool_version, "git_revision", in->git_revision));
    json_object_set_new(o, "command_line", json_string(in->command_line));
    json_object_set_new(o, "started_utc", json_string(in->started_utc));
    json_object_set_new(o, "finished_utc", json_string(in->finished_utc));
    json_object_set_new(o, "host", json_string(in->host));
    json_object_set_new(o, "cuda", json_pack("{s:s, s:s, s:s, s:s}", "driver_api", in->cuda_driver,
                                             "driver_release", in->driver_release, "toolkit",
                                             in->cuda_toolkit, "nvrtc", in->nvrtc));
    json_object_set_new(o, "mode", json_string(in->mode));
    if (in->spec[0])
        json_object_set_new(o, "spec", json_string(in->spec));
    json_object_set_new(o, "complete", json_boolean(in->complete));
    json_object_set_new(o, "points_ok", json_integer(in->points_ok));
    json_object_set_new(o, "points_failed", json_integer(in->points_failed));
    json_object_set_new(o, "restarts_after_fault", json_integer(in->restarts_after_fault));
    json_object_set_new(o, "wall_s", gb_json_real(in->wall_s));
    json_object_set_new(o, "timed_s", gb_json_real(in->timed_s));
    json_object_set_new(o, "timed_share", gb_json_real(in->wall_s > 0 ? in->timed_s / in->wall_s : NAN));
    json_object_set_new(o, "wall_parts", gb_wall_parts_to_json(in));
    json_object_set_new(o, "modules", json_pack("{s:i, s:i, s:o, s:o, s:i}", "compiled", in->modules_compiled,
                                                 "from_disk_cache", in->modules_cached, "compile_cpu_s",
                                                 gb_json_real(in->compile_cpu_s), "gpu_wait_s",
                                                 gb_json_real(in->compile_wait_s), "compile_threads",
                                                 in->compile_threads));
    if (in->incomplete_reason[0])
        json_object_set_new(o, "incomplete_reason", json_string(in->incomplete_reason));
    if (in->has_device)
        json_object_set_new(o, "device", gb_device_to_json(&in->device));
    return o;
}

/* The strings of run.json: tool, times, host, mode and the cuda section. */
static int gb_run_info_strings(const struct gb_jr *j, json_t *o, struct gb_run_info *in)
{
    json_t *tool = json_object_get(o, "tool"), *cuda = json_object_get(o, "cuda");
    const struct gb_jr jt = {.file = j->file, .path = "$.tool", .why = j->why, .n = j->n};
    const struct gb_jr jc = {.file = j->file, .path = "$.cuda", .why = j->why, .n = j->n};
    if (!json_is_object(tool)) {
        snprintf(j->why, j->n, "%s: $.tool is missing (an object with the version is required)", j->file);
        return -1;
    }
    if (gb_jr_str(&jt, tool, "version", in->tool_version, sizeof in->tool_version, 1) ||
        gb_jr_str(&jt, tool, "git_revision", in->git_revision, sizeof in->git_revision, 0) ||
        gb_jr_str(j, o, "command_line", in->command_line, sizeof in->command_line, 0) ||
        gb_jr_str(j, o, "started_utc", in->started_utc, sizeof in->started_utc, 1) ||
        gb_jr_str(j, o, "finished_utc", in->finished_utc, sizeof in->finished_utc, 0) ||
        gb_jr_str(j, o, "host", in->host, sizeof in->host, 0) ||
        gb_jr_str(j, o, "mode", in->mode, sizeof in->mode, 0) ||
        gb_jr_str(j, o, "incomplete_reason", in->incomplete_reason, sizeof in->incomplete_reason, 0) ||
        gb_jr_str(j, o, "spec", in->spec, sizeof in->spec, 0))
        return -1;
    if (json_is_object(cuda) &&
        (gb_jr_str(&jc, cuda, "driver_api", in->cuda_driver, sizeof in->cuda_driver, 0) ||
         gb_jr_str(&jc, cuda, "driver_release", in->driver_release, sizeof in->driver_release, 0) ||
         gb_jr_str(&jc, cuda, "toolkit", in->cuda_toolkit, sizeof in->cuda_toolkit, 0) ||
         gb_jr_str(&jc, cuda, "nvrtc", in->nvrtc, sizeof in->nvrtc, 0)))
        return -1;
    return 0;
}

int gb_run_info_from_json(json_t *o, struct gb_run_info *in, const char *file, char *why, size_t n)
{
    const struct gb_jr j = {.file = file, .path = "$", .why = why, .n = n};
    const struct gb_jr jm = {.file = file, .path = "$.modules", .why = why, .n = n};
    memset(in, 0, sizeof *in);
    if (!json_is_object(o)) {
        snprintf(why, n, "%s: $ is not a JSON object", file);
        return -1;
    }
    if (gb_run_info_strings(&j, o, in) ||
        gb_jr_int(&j, o, "complete", GB_RANGE_FLAG, &in->complete) ||
        gb_jr_int(&j, o, "points_ok", GB_RANGE_POINTS, &in->points_ok) ||
        gb_jr_int(&j, o, "points_failed", GB_RANGE_POINTS, &in->points_failed) ||
        gb_jr_int(&j, o, "restarts_after_fault", GB_RANGE_POINTS, &in->restarts_after_fault) ||
        gb_jr_real(&j, o, "wall_s", GB_RANGE_SECONDS, &in->wall_s) ||
        gb_jr_real(&j, o, "timed_s", GB_RANGE_SECONDS, &in->timed_s))
        return -1;
    const struct gb_jr jw = {.file = file, .path = "$.wall_parts", .why = why, .n = n};
    json_t *parts = json_object_get(o, "wall_parts"); /* absent in runs recorded before it */
    if (json_is_object(parts) &&
        (gb_jr_real(&jw, parts, "compile_s", GB_RANGE_SECONDS, &in->parts.compile_s) ||
         gb_jr_real(&jw, parts, "setup_s", GB_RANGE_SECONDS, &in->parts.setup_s) ||
         gb_jr_real(&jw, parts, "verify_s", GB_RANGE_SECONDS, &in->parts.verify_s) ||
         gb_jr_real(&jw, parts, "warmup_s", GB_RANGE_SECONDS, &in->parts.warmup_s) ||
         gb_jr_real(&jw, parts, "sampling_s", GB_RANGE_SECONDS, &in->parts.sampling_s) ||
         gb_jr_real(&jw, parts, "flush_s", GB_RANGE_SECONDS, &in->parts.flush_s) ||
         gb_jr_real(&jw, parts, "teardown_s", GB_RANGE_SECONDS, &in->parts.teardown_s) ||
         gb_jr_real(&jw, parts, "write_s", GB_RANGE_SECONDS, &in->write_s) ||
         (json_object_get(parts, "start_s") && /* absent in runs recorded before it */
          gb_jr_real(&jw, parts, "start_s", GB_RANGE_SECONDS, &in->parts.start_s))))
        return -1;
    json_t *mods = json_object_get(o, "modules");
    if (json_is_object(mods) &&
        (gb_jr_int(&jm, mods, "compiled", GB_RANGE_MODULES, &in->modules_compiled) ||
         gb_jr_int(&jm, mods, "from_disk_cache", GB_RANGE_MODULES, &in->modules_cached) ||
         gb_jr_real(&jm, mods, "compile_cpu_s", GB_RANGE_SECONDS, &in->compile_cpu_s) ||
         gb_jr_real(&jm, mods, "gpu_wait_s", GB_RANGE_SECONDS, &in->compile_wait_s) ||
         gb_jr_int(&jm, mods, "compile_threads", GB_RANGE_MODULES, &in->compile_threads)))
        return -1;
    json_t *dev = json_object_get(o, "device");
    if (dev && !json_is_null(dev)) {
        if (gb_device_from_json(dev, &in->device, file, "$.device", why, n))
            return -1;
        in->has_device = 1;
    }
    return 0;
}

enum gb_status gb_json_write_file(json_t *root, const char *path, size_t flags)
{
    struct gb_atomic_file a;
    enum gb_status st = gb_atomic_open(&a, path, "w");
    if (st != GB_OK)
        return st;
    errno = 0;
    if (json_dumpf(root, a.f, flags) != 0 || fputc('\n', a.f) == EOF) {
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
        gb_atomic_abort(&a);
        return st;
    }
    return gb_atomic_commit(&a);
}
