/* bench_inflight.h - the global loads one thread of a bench's kernel keeps
 * in flight, read from the PTX NVRTC compiles for a point's defines
 * (gpubound/ptx.h): what the breakdown's round trips need
 * (GB_LPBM_LOADS_IN_FLIGHT) and CampProf's kernel knee reads in bytes
 * (gpubound/camp_inflight.h). It lives with the suites because it compiles
 * their kernels; no GPU is needed. */
#ifndef GPUBOUND_BENCH_INFLIGHT_H
#define GPUBOUND_BENCH_INFLIGHT_H

#include <stddef.h>

#include "gpubound/api.h"
#include "gpubound/ptx.h"
#include "gpubound/results.h"
#include "gpubound/status.h"
#include "gpubound/suite.h"

/* The largest group of bench b's kernel at `axes`, compiled for `arch`
 * ("sm_90"): its .entry is the lowered name of the bench's kernel, else
 * `entry` (NULL: the first). Errors of gb_bench_ptx and gb_ptx_inflight. */
GB_API enum gb_status gb_bench_inflight(const struct gb_bench *b, const struct gb_kv *axes, int n_axes,
                                        const char *arch, const char *entry, struct gb_ptx_inflight *out);

/* The suite that `run`'s kernel spec makes (it owns the spec): the spec at
 * `spec` given by the user, or NULL: the run's own (gb_lpbm_spec_locate).
 * Errors of locating, loading and making it, said. */
GB_API enum gb_status gb_run_spec_suite(const struct gb_run *run, const char *spec, struct gb_suite **out);

/* What reads a run's records' loads in flight: its suite (from the kernel
 * spec at `spec_path`, or the built-in suite the records name) and its
 * GPU's arch, each group kept per bench and axis values. */
struct gb_inflight_reader;

/* A reader of `run`'s records; `spec` the kernel spec's path given by the
 * user, or NULL: the run's own (gb_lpbm_spec_locate; none for a run of
 * built-in suites). NULL only when out of memory. A reader that cannot
 * read (no spec, no arch in the run, no NVRTC) answers NaN. */
GB_API struct gb_inflight_reader *gb_inflight_reader_new(const struct gb_run *run, const char *spec);
GB_API void gb_inflight_reader_free(struct gb_inflight_reader *x);

/* A gb_lpbm_counter_fn (ctx: a gb_inflight_reader): GB_LPBM_LOADS_IN_FLIGHT
 * read from the record's kernel's PTX (NaN where it cannot be: no global
 * load, no compile), every other metric the record's own counter. */
GB_API double gb_inflight_counter(void *ctx, const struct gb_record *r, size_t index, const char *metric);

#endif
