/* camp_inflight.h - the bytes of global loads a thread keeps in flight,
 * read from PTX (gpubound/ptx.h) that NVRTC compiles from a run's kernel
 * spec or from the camping suite's own kernel: what CampProf's application
 * line with the kernel's own knee needs (gpubound/campprof.h,
 * gb_camp_line_factor; docs/models.md, "The kernel's own knee"). It lives
 * with the suites because it compiles their kernels (no GPU needed). */
#ifndef GPUBOUND_CAMP_INFLIGHT_H
#define GPUBOUND_CAMP_INFLIGHT_H

#include <stddef.h>

#include "gpubound/api.h"
#include "gpubound/campprof.h"
#include "gpubound/results.h"
#include "gpubound/status.h"

/* The global atomic and reduction warp instructions per global load warp
 * instruction at or above which a configuration whose kernel has global
 * atomics keeps the camping suite's knee in the application line: at one
 * atomic for every four loads the L2's atomic units, not the loads'
 * latency, set how the time follows the warps (docs/models.md, "The
 * kernel's own knee"). Fixed before the set that judges it was recorded. */
#define GB_CAMP_ATOMIC_SHARE 0.25

/* Sets m->inflight_product from the camping suite's read kernel compiled
 * to PTX for `arch` ("sm_90"; NULL: the model's device) at each width the
 * spread read equation has a knee for (gpubound/ptx.h). Where that cannot
 * be read (no NVRTC, no device in the model, a form without knees) it
 * stays NaN, so that the line keeps the suite's shape, and the error says
 * why. Callers that want the kernel's own knee call it once after loading
 * the model. */
GB_API enum gb_status gb_camp_model_inflight(struct gb_camp_model *m, const char *arch);

/* Sets the inflight_bytes of every kernel-spec configuration of `apps`
 * (records of `run`) from its bench's kernel compiled to PTX for the run's
 * GPU with the point's defines, and the sectors per load request its
 * counters measured. A configuration whose spec, source, GPU or compile is
 * missing keeps NaN, and so does one whose kernel has global atomics or
 * reductions at GB_CAMP_ATOMIC_SHARE or more of its global loads (the
 * profiler's count where recorded, else the source analysis's), or whose
 * atomics cannot be counted; *missing counts them and `why` (n bytes) says
 * why, each reason with its count. A gb_camp_apps_hook for
 * gb_camp_validate_run. */
GB_API void gb_camp_apps_inflight(const struct gb_run *run, struct gb_camp_app *apps, size_t n_apps,
                                  size_t *missing, char *why, size_t n);

/* The same for one kernel-spec point: record `r` of `run`, with the counts
 * `c` of its observation; *bytes NaN and an error saying why where it
 * cannot be read, GB_ERR_UNSUPPORTED where its atomics keep the suite's
 * knee (their share, above). */
GB_API enum gb_status gb_camp_point_inflight(const struct gb_run *run, const struct gb_record *r,
                                             const struct gb_camp_counts *c, double *bytes);

#endif
