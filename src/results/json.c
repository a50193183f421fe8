/* json.c - run metadata and device sections to and from JSON, through
 * jansson (records: record_json.c, from the record table). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/json.h"
#include "results/schema.h"
#include "results/validate.h"
#include "util/fs.h"

json_t *gb_json_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
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
    if (in->spec_budget_bytes > 0)
        json_object_set_new(o, "spec_data", json_pack("{s:I, s:s, s:i, s:i}", "budget_bytes",
                                                      (json_int_t)in->spec_budget_bytes, "budget_rule",
                                                      "half the device memory free at the first spec point",
                                                      "problems_made", in->spec_problems, "problems_evicted",
                                                      in->spec_evictions));
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
