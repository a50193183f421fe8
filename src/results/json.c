/* json.c - records and run metadata to and from JSON, through jansson.
 * The one place that knows the field names of results-format.md. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/json.h"
#include "util/fs.h"

json_t *gb_json_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The batch time of a record: an object like time_ns, or null when the
 * point was not batched. */
static json_t *gb_batch_time_to_json(const struct gb_record *r)
{
    if (r->batch <= 1)
        return json_null();
    json_t *b = json_object();
    json_object_set_new(b, "min", gb_json_real(r->batch_min_ns));
    json_object_set_new(b, "median", gb_json_real(r->batch_median_ns));
    json_object_set_new(b, "mean", gb_json_real(r->batch_mean_ns));
    json_object_set_new(b, "stddev", gb_json_real(r->batch_stddev_ns));
    json_object_set_new(b, "ci_lo", gb_json_real(r->batch_ci_lo_ns));
    json_object_set_new(b, "ci_hi", gb_json_real(r->batch_ci_hi_ns));
    return b;
}

json_t *gb_record_to_json(const struct gb_record *r)
{
    json_t *o = json_object(), *axes = json_object(), *t = json_object(), *m = json_object();
    for (int i = 0; i < r->n_axes; i++)
        json_object_set_new(axes, r->axes[i].name, json_string(r->axes[i].value));
    json_object_set_new(t, "min", gb_json_real(r->min_ns));
    json_object_set_new(t, "median", gb_json_real(r->median_ns));
    json_object_set_new(t, "mean", gb_json_real(r->mean_ns));
    json_object_set_new(t, "stddev", gb_json_real(r->stddev_ns));
    json_object_set_new(t, "ci_lo", gb_json_real(r->ci_lo_ns));
    json_object_set_new(t, "ci_hi", gb_json_real(r->ci_hi_ns));
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
    json_object_set_new(o, "time_ns", t);
    json_object_set_new(o, "batch_time_ns", gb_batch_time_to_json(r));
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
    return o;
}

/* Readers: a missing or null number reads as NAN; wrong types are errors. */
static int gb_get_real(json_t *o, const char *key, double *out)
{
    json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return 0;
}

static int gb_get_str(json_t *o, const char *key, char *buf, size_t n, int required)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        buf[0] = '\0';
        return required ? -1 : 0;
    }
    if (!json_is_string(v))
        return -1;
    snprintf(buf, n, "%s", json_string_value(v));
    return 0;
}

static int gb_get_int(json_t *o, const char *key, int *out)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        *out = 0;
        return 0;
    }
    if (json_is_integer(v))
        *out = (int)json_integer_value(v);
    else if (json_is_boolean(v))
        *out = json_is_true(v);
    else
        return -1;
    return 0;
}

/* time_source and batch_time_ns. A record written before they existed was
 * timed by events: around a graph of `batch` launches when batch > 1, and
 * then its times are the batch times. */
static int gb_time_source_from_json(json_t *o, struct gb_record *r)
{
    json_t *src = json_object_get(o, "time_source"), *b = json_object_get(o, "batch_time_ns");
    int bad = 0;
    r->batch_min_ns = r->batch_median_ns = r->batch_mean_ns = NAN;
    r->batch_stddev_ns = r->batch_ci_lo_ns = r->batch_ci_hi_ns = NAN;
    if (src && !json_is_null(src))
        bad |= gb_get_str(o, "time_source", r->time_source, sizeof r->time_source, 0);
    if (json_object_get(o, "cold_flush")) /* absent: hot, or recorded before the flush was named */
        bad |= gb_get_str(o, "cold_flush", r->cold_flush, sizeof r->cold_flush, 0);
    if (b && json_is_object(b))
        bad |= gb_get_real(b, "min", &r->batch_min_ns) | gb_get_real(b, "median", &r->batch_median_ns) |
               gb_get_real(b, "mean", &r->batch_mean_ns) | gb_get_real(b, "stddev", &r->batch_stddev_ns) |
               gb_get_real(b, "ci_lo", &r->batch_ci_lo_ns) | gb_get_real(b, "ci_hi", &r->batch_ci_hi_ns);
    else if (b && !json_is_null(b))
        bad = -1;
    if (src || r->status != GB_REC_OK)
        return bad;
    snprintf(r->time_source, sizeof r->time_source, "%s", r->batch > 1 ? "events-graph" : "events");
    if (r->batch > 1 && !b) {
        r->batch_min_ns = r->min_ns;
        r->batch_median_ns = r->median_ns;
        r->batch_mean_ns = r->mean_ns;
        r->batch_stddev_ns = r->stddev_ns;
        r->batch_ci_lo_ns = r->ci_lo_ns;
        r->batch_ci_hi_ns = r->ci_hi_ns;
    }
    return bad;
}

static int gb_record_fill(json_t *o, struct gb_record *r, char *why, size_t n)
{
    char status[32], cache[16];
    if (!json_is_object(o)) {
        snprintf(why, n, "a record is not a JSON object");
        return -1;
    }
    if (gb_get_str(o, "suite", r->suite, sizeof r->suite, 1) || gb_get_str(o, "bench", r->bench, sizeof r->bench, 1) ||
        gb_get_str(o, "status", status, sizeof status, 1)) {
        snprintf(why, n, "a record lacks suite, bench or status");
        return -1;
    }
    if (strcmp(status, "ok") == 0)
        r->status = GB_REC_OK;
    else if (strcmp(status, "failed") == 0)
        r->status = GB_REC_FAILED;
    else if (strcmp(status, "skipped") == 0)
        r->status = GB_REC_SKIPPED;
    else if (strcmp(status, "error") == 0)
        r->status = GB_REC_ERROR;
    else {
        snprintf(why, n, "record %s/%s has unknown status '%s'", r->suite, r->bench, status);
        return -1;
    }
    gb_get_str(o, "reason", r->reason, sizeof r->reason, 0);
    gb_get_str(o, "cache", cache, sizeof cache, 0);
    r->cache = strcmp(cache, "cold") == 0 ? GB_CACHE_COLD : GB_CACHE_HOT;
    json_t *axes = json_object_get(o, "axes"), *t = json_object_get(o, "time_ns"),
           *m = json_object_get(o, "metrics");
    const char *key;
    json_t *v;
    if (axes && json_is_object(axes)) {
        json_object_foreach(axes, key, v) {
            if (!json_is_string(v) || gb_record_set_axis(r, key, json_string_value(v)) != GB_OK) {
                snprintf(why, n, "record %s/%s has a bad axis '%s'", r->suite, r->bench, key);
                return -1;
            }
        }
    }
    int bad = 0;
    if (t && json_is_object(t)) {
        bad |= gb_get_real(t, "min", &r->min_ns) | gb_get_real(t, "median", &r->median_ns) |
               gb_get_real(t, "mean", &r->mean_ns) | gb_get_real(t, "stddev", &r->stddev_ns) |
               gb_get_real(t, "ci_lo", &r->ci_lo_ns) | gb_get_real(t, "ci_hi", &r->ci_hi_ns);
    } else {
        r->min_ns = r->median_ns = r->mean_ns = r->stddev_ns = r->ci_lo_ns = r->ci_hi_ns = NAN;
    }
    bad |= gb_get_int(o, "samples", &r->samples) | gb_get_int(o, "converged", &r->converged) |
           gb_get_int(o, "batch", &r->batch) | gb_get_int(o, "throttled", &r->throttled);
    bad |= gb_get_real(o, "bytes", &r->bytes) | gb_get_real(o, "flops", &r->flops) |
           gb_get_real(o, "bw_gbs", &r->bw_gbs) | gb_get_real(o, "gflops", &r->gflops) |
           gb_get_real(o, "sm_mhz_before", &r->sm_mhz_before) |
           gb_get_real(o, "sm_mhz_after", &r->sm_mhz_after) | gb_get_real(o, "wall_s", &r->wall_s) |
           gb_get_real(o, "timed_s", &r->timed_s);
    bad |= gb_time_source_from_json(o, r);
    if (m && json_is_object(m)) {
        json_object_foreach(m, key, v) {
            if (!json_is_number(v) && !json_is_null(v)) {
                bad = 1;
                break;
            }
            if (gb_record_set_metric(r, key, json_is_null(v) ? NAN : json_number_value(v)) != GB_OK) {
                snprintf(why, n, "record %s/%s: %s", r->suite, r->bench, gb_error_message());
                return -1;
            }
        }
    }
    if (bad) {
        snprintf(why, n, "record %s/%s has a field of the wrong type", r->suite, r->bench);
        return -1;
    }
    return 0;
}

int gb_record_from_json(json_t *o, struct gb_record *r, char *why, size_t n)
{
    memset(r, 0, sizeof *r);
    if (gb_record_fill(o, r, why, n) == 0)
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

int gb_device_from_json(json_t *o, struct gb_device_info *d)
{
    memset(d, 0, sizeof *d);
    if (!json_is_object(o))
        return -1;
    int bad = 0;
    char cc[16];
    bad |= gb_get_str(o, "name", d->name, sizeof d->name, 1);
    gb_get_str(o, "uuid", d->uuid, sizeof d->uuid, 0);
    gb_get_str(o, "pci_bus_id", d->pci_bus_id, sizeof d->pci_bus_id, 0);
    bad |= gb_get_str(o, "compute_capability", cc, sizeof cc, 1);
    if (!bad && sscanf(cc, "%d.%d", &d->cc_major, &d->cc_minor) != 2)
        bad = 1;
#define GB_DEV_INT(f) bad |= gb_get_int(o, #f, &d->f);
    GB_DEVICE_INT_FIELDS(GB_DEV_INT)
#undef GB_DEV_INT
    json_t *a = json_object_get(o, "max_block_dim"), *b = json_object_get(o, "max_grid_dim");
    for (int i = 0; i < 3; i++) {
        if (json_is_array(a) && json_is_integer(json_array_get(a, (size_t)i)))
            d->max_block_dim[i] = (int)json_integer_value(json_array_get(a, (size_t)i));
        if (json_is_array(b) && json_is_integer(json_array_get(b, (size_t)i)))
            d->max_grid_dim[i] = (int)json_integer_value(json_array_get(b, (size_t)i));
    }
    bad |= gb_get_real(o, "mem_peak_gbs", &d->mem_peak_gbs);
    json_t *v = json_object_get(o, "l2_bytes");
    d->l2_bytes = json_is_integer(v) ? json_integer_value(v) : 0;
    v = json_object_get(o, "total_mem_bytes");
    d->total_mem_bytes = json_is_integer(v) ? json_integer_value(v) : 0;
    return bad ? -1 : 0;
}

/* Where the run's wall time went; the remainder is the tool's own work
 * between points (planning, the GPU's start, progress output). */
static json_t *gb_wall_parts_to_json(const struct gb_run_info *in)
{
    const struct gb_wall_parts *w = &in->parts;
    double known = w->compile_s + w->setup_s + w->verify_s + w->warmup_s + w->sampling_s + w->teardown_s +
                   in->write_s;
    json_t *o = json_object();
    json_object_set_new(o, "compile_s", gb_json_real(w->compile_s));
    json_object_set_new(o, "setup_s", gb_json_real(w->setup_s));
    json_object_set_new(o, "verify_s", gb_json_real(w->verify_s));
    json_object_set_new(o, "warmup_s", gb_json_real(w->warmup_s));
    json_object_set_new(o, "sampling_s", gb_json_real(w->sampling_s));
    json_object_set_new(o, "timed_s", gb_json_real(in->timed_s));
    json_object_set_new(o, "flush_s", gb_json_real(w->flush_s));
    json_object_set_new(o, "teardown_s", gb_json_real(w->teardown_s));
    json_object_set_new(o, "write_s", gb_json_real(in->write_s));
    json_object_set_new(o, "other_s", gb_json_real(in->wall_s - known));
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
    json_object_set_new(o, "complete", json_boolean(in->complete));
    json_object_set_new(o, "points_ok", json_integer(in->points_ok));
    json_object_set_new(o, "points_failed", json_integer(in->points_failed));
    json_object_set_new(o, "wall_s", gb_json_real(in->wall_s));
    json_object_set_new(o, "timed_s", gb_json_real(in->timed_s));
    json_object_set_new(o, "timed_share", gb_json_real(in->wall_s > 0 ? in->timed_s / in->wall_s : NAN));
    json_object_set_new(o, "wall_parts", gb_wall_parts_to_json(in));
    json_object_set_new(o, "modules", json_pack("{s:i, s:i}", "compiled", in->modules_compiled,
                                                 "from_disk_cache", in->modules_cached));
    if (in->has_device)
        json_object_set_new(o, "device", gb_device_to_json(&in->device));
    return o;
}

int gb_run_info_from_json(json_t *o, struct gb_run_info *in, char *why, size_t n)
{
    memset(in, 0, sizeof *in);
    if (!json_is_object(o)) {
        snprintf(why, n, "run.json is not a JSON object");
        return -1;
    }
    json_t *tool = json_object_get(o, "tool"), *cuda = json_object_get(o, "cuda");
    if (!json_is_object(tool) || gb_get_str(tool, "version", in->tool_version, sizeof in->tool_version, 1)) {
        snprintf(why, n, "run.json lacks tool.version");
        return -1;
    }
    gb_get_str(tool, "git_revision", in->git_revision, sizeof in->git_revision, 0);
    int bad = 0;
    bad |= gb_get_str(o, "command_line", in->command_line, sizeof in->command_line, 0);
    bad |= gb_get_str(o, "started_utc", in->started_utc, sizeof in->started_utc, 1);
    bad |= gb_get_str(o, "finished_utc", in->finished_utc, sizeof in->finished_utc, 0);
    bad |= gb_get_str(o, "host", in->host, sizeof in->host, 0);
    bad |= gb_get_str(o, "mode", in->mode, sizeof in->mode, 0);
    if (json_is_object(cuda)) {
        gb_get_str(cuda, "driver_api", in->cuda_driver, sizeof in->cuda_driver, 0);
        gb_get_str(cuda, "driver_release", in->driver_release, sizeof in->driver_release, 0);
        gb_get_str(cuda, "toolkit", in->cuda_toolkit, sizeof in->cuda_toolkit, 0);
        gb_get_str(cuda, "nvrtc", in->nvrtc, sizeof in->nvrtc, 0);
    }
    bad |= gb_get_int(o, "complete", &in->complete) | gb_get_int(o, "points_ok", &in->points_ok) |
           gb_get_int(o, "points_failed", &in->points_failed);
    bad |= gb_get_real(o, "wall_s", &in->wall_s) | gb_get_real(o, "timed_s", &in->timed_s);
    json_t *parts = json_object_get(o, "wall_parts");
    if (json_is_object(parts)) /* absent in runs recorded before it */
        bad |= gb_get_real(parts, "compile_s", &in->parts.compile_s) |
               gb_get_real(parts, "setup_s", &in->parts.setup_s) | gb_get_real(parts, "verify_s", &in->parts.verify_s) |
               gb_get_real(parts, "warmup_s", &in->parts.warmup_s) |
               gb_get_real(parts, "sampling_s", &in->parts.sampling_s) |
               gb_get_real(parts, "flush_s", &in->parts.flush_s) |
               gb_get_real(parts, "teardown_s", &in->parts.teardown_s) | gb_get_real(parts, "write_s", &in->write_s);
    json_t *mods = json_object_get(o, "modules");
    if (json_is_object(mods))
        bad |= gb_get_int(mods, "compiled", &in->modules_compiled) |
               gb_get_int(mods, "from_disk_cache", &in->modules_cached);
    json_t *dev = json_object_get(o, "device");
    if (dev) {
        if (gb_device_from_json(dev, &in->device)) {
            snprintf(why, n, "run.json has a malformed device section");
            return -1;
        }
        in->has_device = 1;
    }
    if (bad) {
        snprintf(why, n, "run.json has a field of the wrong type or lacks started_utc");
        return -1;
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
