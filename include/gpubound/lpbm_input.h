/* lpbm_input.h - the one adapter between a recorded run and the breakdown
 * model (lpbm.h): the records of a kernel-spec bench, the spec the run
 * carries, and the analysis of the kernel's source, turned into one
 * struct gb_lpbm_point per measured configuration.
 *
 * Records give the time (median_ns and its interval) and the launch
 * (metrics block_threads, grid_blocks, active_warps_per_sm, regs,
 * smem_static_bytes, smem_dynamic_bytes, as the kernel-spec contract
 * records them); run.json gives the SM count. Per-thread counts come from
 * the source analysis (analyze.h) where it decides them, else from the
 * bench's optional "lpbm" object ({"ops", "global_bytes",
 * "shared_accesses"}: expressions of the axes, per launch), else (ops and
 * global bytes only) from the bench's "flops" and "bytes".
 *
 * Reads files (the spec, the kernel source); never prints; not
 * thread-safe (libclang).
 */
#ifndef GPUBOUND_LPBM_INPUT_H
#define GPUBOUND_LPBM_INPUT_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/analyze.h"
#include "gpubound/lpbm.h"
#include "gpubound/results.h"

/* The fields of a kernel spec the model reads (opaque). */
struct gb_lpbm_spec;

/* Finds the spec a run was recorded from: `override` when given, else the
 * copy the run directory holds (spec.json, spec/spec.json, spec/ *.json,
 * then the copy run keeps, spec/<suite>/ under the name of a path of
 * run.json's "spec" or spec.json), else the .json path on the run's command
 * line (as written, then relative to the run directory's parents).
 * GB_ERR_FORMAT naming what was tried. */
GB_API enum gb_status gb_lpbm_spec_locate(const struct gb_run *run, const char *override, char *path,
                                   size_t n);

/* Reads and checks the spec at `path` with the spec parser (gb_spec_load):
 * GB_ERR_FORMAT with its one line (the file, the field and why) for a spec
 * that cannot be read or is not valid, GB_ERR_NOMEM. */
GB_API enum gb_status gb_lpbm_spec_load(const char *path, struct gb_lpbm_spec **out);
GB_API void gb_lpbm_spec_free(struct gb_lpbm_spec *s);

/* Whether `s` is the spec `run` measured: the SHA-256 of its file and of
 * each of its sources, as read, against the digests run.json keeps
 * (info.spec_sha256; a spec file that differs only in what models read, its
 * "lpbm" hints or comments, matches by info.spec_measured_sha256). GB_OK
 * when every one matches; GB_ERR_FORMAT with one
 * line naming the file, both digests' first 12 hex digits and what to do
 * when one differs, or when the run, which kept digests, has none for it.
 * A run recorded before run.json kept digests (none of either kind) cannot
 * be checked: GB_OK with *unchecked = 1 (the caller warns); else 0. */
GB_API enum gb_status gb_lpbm_spec_check(const struct gb_run *run, const struct gb_lpbm_spec *s, int *unchecked);

/* The suite, the number of benches and the name of bench i. */
GB_API const char *gb_lpbm_spec_suite(const struct gb_lpbm_spec *s);
GB_API size_t gb_lpbm_spec_n_benches(const struct gb_lpbm_spec *s);
GB_API const char *gb_lpbm_spec_bench(const struct gb_lpbm_spec *s, size_t i);

/* A measured count of record `index` of the run (Nsight Compute's metric
 * name), NaN when the record has none. */
typedef double (*gb_lpbm_counter_fn)(void *ctx, const struct gb_record *r, size_t index,
                                     const char *metric);

/* The name a gb_lpbm_counter_fn is asked for the global loads a thread of
 * the record's kernel keeps in flight (gb_ptx_inflight's largest group,
 * read from its PTX): not a profiler metric, and NaN from a function that
 * does not read PTX (gb_lpbm_counters_get). */
#define GB_LPBM_LOADS_IN_FLIGHT "gpubound:ptx_loads_in_flight"

/* Fills the counters-form inputs of `p` (c_inst, c_global_sectors,
 * c_shared_wavefronts) and the resources form's (c_dram_sectors,
 * c_l2_sectors, c_global_ld_inst; NaN when not recorded) from the record's
 * counters through `fn`: the one place that names the metrics the counters
 * forms need. Returns 1 when the counters form's three are present. */
GB_API int gb_lpbm_counters_fill(struct gb_lpbm_point *p, const struct gb_record *r, size_t index,
                          gb_lpbm_counter_fn fn, void *ctx);

/* The gb_lpbm_counter_fn over the records' own counters (gb_record_counter;
 * ctx and index unused). */
GB_API double gb_lpbm_counters_get(void *ctx, const struct gb_record *r, size_t index,
                            const char *metric);

/* One bench's configurations, ready to fit. */
struct gb_lpbm_variants;

struct gb_lpbm_input {
    char suite[32], bench[64];
    char kernel[128], source[4700];
    struct gb_lpbm_point *pts;
    size_t n;
    int analysed;                      /* 1 when the source analysis ran */
    char analysis_why[512];            /* why it did not, or what it could not decide */
    struct gb_kernel_analysis analysis;
    char defines[1024];                /* the -D defines it was parsed with */
    /* A configuration whose defines change what the source's preprocessor
     * directives decide is parsed apart (lpbm_variants.c): the key of the
     * first parse, the other variants parsed, and how many. */
    char variant_key0[512];
    struct gb_lpbm_variants *variants;
    int n_variants;
    int variants_capped;               /* 1: more variants than kept took the first's counts */
    char sources[256];                 /* where each count came from */
    char note[512];                    /* the spec's "lpbm" "note", or "" */
    int n_counters;                    /* points with every counter the counters form needs */
    int n_resources;                   /* points with every counter the resources form needs */
    char formula_why[768];             /* why the formula form cannot be fitted ("" it can) */
};

/* Builds the input of bench `bench` of `spec` from the ok records of `run`.
 * `counters` may be NULL (no counters form). GB_ERR_USAGE, one line, when
 * the run has no measured record of the bench, the bench sweeps no block
 * size, or a count is neither analysed nor given by the spec and some
 * point lacks the resources form's counters (else formula_why says so);
 * GB_ERR_FORMAT for a record that lacks its launch. Release with
 * gb_lpbm_input_release. */
GB_API enum gb_status gb_lpbm_input_build(const struct gb_run *run, const struct gb_lpbm_spec *spec,
                                   const char *bench, gb_lpbm_counter_fn counters, void *ctx,
                                   struct gb_lpbm_input *out);
/* The same points without what only a fit needs (a swept block size,
 * counts for the formula form): for a caller that reads a configuration's
 * counts, such as CampProf's count of a kernel's atomics (an occupancy
 * sweep keeps one block size). */
GB_API enum gb_status gb_lpbm_input_points(const struct gb_run *run, const struct gb_lpbm_spec *spec,
                                    const char *bench, gb_lpbm_counter_fn counters, void *ctx,
                                    struct gb_lpbm_input *out);
GB_API void gb_lpbm_input_release(struct gb_lpbm_input *in);

#endif
