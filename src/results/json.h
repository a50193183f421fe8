/* json.h - JSON forms of records and run metadata (src/results, and the model
 * files of src/models that record the device they were fitted on). */
#ifndef GB_RESULTS_JSON_H
#define GB_RESULTS_JSON_H

#include <jansson.h>

#include "gpubound/results.h"

/* Integer fields of struct gb_device_info written under their own names. */
#define GB_DEVICE_INT_FIELDS(X) \
    X(sm_count) X(warp_size) X(max_threads_per_block) X(max_threads_per_sm) X(max_blocks_per_sm) \
    X(regs_per_sm) X(regs_per_block) X(max_regs_per_thread) X(reg_alloc_unit) X(smem_per_sm) \
    X(smem_per_block) X(smem_per_block_optin) X(smem_reserved_per_block) X(smem_alloc_unit) \
    X(sm_clock_max_mhz) X(mem_clock_max_mhz) X(mem_bus_width_bits) X(ecc_enabled) X(driver_version)

/* A number as JSON: a real, or null when it is not finite (NaN, infinities),
 * which JSON cannot hold. A new reference. */
json_t *gb_json_real(double v);

json_t *gb_record_to_json(const struct gb_record *r);
/* Fills `r` (overwritten, not released first: pass a zeroed or released
 * record) from the record at JSON path `path` ("$[3]") of `file`, every
 * number checked against its range (validate.h). Returns 0, or -1 with the
 * one-line violation (file, field, value, allowed range) in `why` and `r`
 * released. */
int gb_record_from_json(json_t *o, struct gb_record *r, const char *file, const char *path,
                        char *why, size_t n);
/* A record's sample_ns array ("sample_ns":[...], no braces) to `f`:
 * integers where integral, else rounded to 0.001 ns (samples.c). */
enum gb_status gb_record_samples_write(FILE *f, const struct gb_record *r);
/* The record's sample_ns member into r->sample_ns (absent or null: none);
 * every value in GB_RANGE_TIME_NS and as many as r->samples. 0, or -1 with
 * the violation in `why` (the caller releases `r`). */
int gb_record_samples_from_json(json_t *o, struct gb_record *r, const char *file, const char *path,
                                char *why, size_t n);
/* A record's counters as JSON (src/results/counters.c): an object keyed by
 * metric name, numbers or per-instance arrays. A new reference. */
json_t *gb_counters_to_json(const struct gb_counters *c);
/* The "counters" object `o` (NULL or null: none) of the record at `path`
 * of `file` into `c`: names checked (gb_counter_name_check), values in
 * GB_RANGE_COUNTER. 0, or -1 with the violation in `why`. */
int gb_counters_from_json(json_t *o, struct gb_counters *c, const char *file, const char *path,
                          char *why, size_t n);
json_t *gb_device_to_json(const struct gb_device_info *d);
/* As gb_record_from_json for a device section at `path` of `file`: every
 * limit range-checked, so that the models' int arithmetic on them cannot
 * overflow. */
int gb_device_from_json(json_t *o, struct gb_device_info *d, const char *file, const char *path,
                        char *why, size_t n);
json_t *gb_run_info_to_json(const struct gb_run_info *in);
/* run.json of `file`, as gb_record_from_json. A "format" (or tool name)
 * other than the one this build writes is refused; an absent one is read
 * as this build's (see gb_run_info_format_absent). */
int gb_run_info_from_json(json_t *o, struct gb_run_info *in, const char *file, char *why, size_t n);
/* The format this build writes ("gpubound-run/1") when run.json's object
 * `o` names none, else NULL: for the loader's warning. */
const char *gb_run_info_format_absent(json_t *o);

/* Writes `root` (not consumed) to `path` atomically (util/fs.h) as JSON
 * dumped with `flags` and a final newline. GB_ERR_IO with the path. */
enum gb_status gb_json_write_file(json_t *root, const char *path, size_t flags);

#endif
