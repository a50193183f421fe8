/* session.h - a measuring session: one GPU opened, the run's metadata
 * filled once from it, and the plan -> measure -> write loop as one call.
 * `gpubound run` and `gpubound occupancy --record-truth` use it, and any
 * other program (the fleet path) can: nothing here prints or exits; what a
 * caller wants to show comes to it through hooks.
 */
#ifndef GPUBOUND_SESSION_H
#define GPUBOUND_SESSION_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/gpu.h"
#include "gpubound/measure.h"
#include "gpubound/results.h"

/* An open session. Caller-owned storage; one thread. */
struct gb_session {
    struct gb_gpu gpu;
    struct gb_run_info info;     /* the run's metadata, filled by open and finish */
    double t_start;              /* monotonic seconds when the session began */
    int gpu_open;
    double pool_cpu_s;           /* CPU seconds of the compile pool's threads */
    int pool_threads;            /* the compile pool's threads (0: none) */
    /* What the run's earlier processes compiled (a run that went on after a
     * fault): added to this process's counts by gb_session_finish. */
    struct gb_run_info prior;
};

/* Opens GPU `ordinal` and fills s->info: tool, host, start time,
 * `command_line`, device, driver versions, mode ("quick" or "full").
 * GB_ERR_NO_GPU (or the driver's error) when the device cannot be used;
 * then nothing is held, and gb_session_close is still safe. */
GB_API enum gb_status gb_session_open(struct gb_session *s, int ordinal, const char *command_line, int quick);

/* Fills the end of s->info: wall time since s->t_start (open, or the
 * run's start carried through a restart), NVRTC compilations and
 * disk-cache hits, compile CPU time and the GPU thread's wait for
 * compiles (with s->prior's), finish time, and `complete`. */
GB_API void gb_session_finish(struct gb_session *s, int complete);

/* Closes the GPU; safe on a session that failed to open or was closed. */
GB_API void gb_session_close(struct gb_session *s);

/* What a caller of gb_session_run is told while it runs (any may be NULL). */
struct gb_session_hooks {
    /* The device is open and the run directory started: the caller may add
     * files of its own to it (the run's chart specs). A failure stops the
     * run before any point is measured. */
    enum gb_status (*started)(void *ctx, const struct gb_run_info *info, size_t n_points);
    /* Before point `done` (rec == NULL) and after it (rec: its record,
     * already written; done counts it). */
    void (*point)(void *ctx, size_t done, size_t total, const struct gb_plan_item *item,
                  const struct gb_record *rec);
    /* When the loop has measured the plan's last item: the caller may add
     * items at the end of the plan it passed (its own, grown in place:
     * `gpubound tune` asks its strategy for the next configurations) and
     * returns how many it added; 0 ends the run. NULL: the plan is all. */
    size_t (*more)(void *ctx, size_t done);
    void *ctx;
};

/* Where a run cut short by a kernel fault goes on. A sticky error (an
 * illegal address) leaves the process unable to use CUDA again, so
 * `gpubound run` starts itself anew with this (cmd_run.c). */
struct gb_session_resume {
    size_t next;                 /* the plan index to go on from: the items before it are recorded */
    int restarts;                /* restarts after a fault, this one included */
    double t_start;              /* monotonic seconds (gb_measure_now_s) when the run began */
    char started_utc[32];        /* run.json's started_utc: the directory must hold this run */
};

struct gb_session_opts {
    int device;                  /* GPU ordinal */
    const char *out_dir;         /* prepared by gb_run_dir_prepare */
    const char *command_line;    /* for run.json */
    const char *spec;            /* the kernel spec file(s) run, for run.json ("" or NULL: none) */
    int quick;                   /* the plan was built with quick sweeps */
    /* How points are measured; `share` is ignored (the session keeps the
     * shared state of consecutive points itself). */
    struct gb_measure_opts measure;
    /* NULL: a new run into an empty out_dir. Else out_dir holds this run,
     * cut short by a fault, and it goes on from resume->next. */
    const struct gb_session_resume *resume;
};

/* Where a session run stopped when it did not return GB_OK. */
enum gb_session_stage {
    GB_SESSION_DEVICE = 0,       /* the GPU could not be opened: nothing written, out_dir removed if empty */
    GB_SESSION_WRITE,            /* the run directory could not be written */
    GB_SESSION_MEASURE,          /* interrupted (GB_ERR_INTERRUPTED), a point hung (GB_ERR_TIMEOUT),
                                  * or a kernel faulted (GB_ERR_DEVICE_LOST: go on from resume_next
                                  * in a new process) */
    GB_SESSION_FINISH,           /* the run's last files could not be written */
};

struct gb_session_result {
    enum gb_session_stage stage; /* meaningful when gb_session_run did not return GB_OK */
    struct gb_run_info info;     /* the run's metadata as last written */
    size_t resume_next;          /* GB_ERR_DEVICE_LOST: the plan index the run goes on from */
};

/* Measures every point of `plan` on GPU o->device into o->out_dir: opens
 * the device, writes run.json, then each point's record as it completes
 * (results.json, results.csv), and finally run.json again with the
 * counts, times and `complete`. Seeds rand() for fresh inputs. The plan's
 * kernels are compiled ahead on host threads (gb_compile_pool_threads).
 * A failure stays inside its point (compile error, refused launch).
 * Stops early when gb_measure_interrupted is set, when a point runs past
 * its limit (GB_ERR_TIMEOUT: its record is written, the device is not
 * touched again, and the process should exit soon, which ends the kernel),
 * or when a kernel faults before the last point (GB_ERR_DEVICE_LOST: its
 * record is written, run.json is incomplete, and the run goes on from
 * res->resume_next in a new process, through o->resume); points measured
 * before are kept and res->info.incomplete_reason says why. With o->resume
 * the records already in out_dir are loaded and written back (GB_ERR_USAGE
 * when the directory is not that run's: another started_utc, complete, or
 * a record count other than resume->next), run.json's
 * restarts_after_fault is resume->restarts, and the items before
 * resume->next are not measured again. Returns GB_OK when every
 * planned point was measured and written (points that failed count in
 * res->info, not here); otherwise the status and res->stage say why. */
GB_API enum gb_status gb_session_run(const struct gb_plan *plan, const struct gb_session_opts *o,
                              const struct gb_session_hooks *hooks, struct gb_session_result *res);

/* ---- profiling without a run directory (src/measure/profile_session.c) ---- */

/* Opens GPU o->device and profiles every point of the `n_plans` plans in
 * order (o->measure with profile_only set: set up, verify, profile one
 * launch; nothing timed, nothing written), handing each record to
 * `each` (the record is released after the call). GB_ERR_NO_GPU when the
 * device cannot be opened; a point's failure is in its record; an
 * interruption or a faulted device stops the loop with its status. */
GB_API enum gb_status gb_session_profile(const struct gb_plan *const *plans, size_t n_plans,
                                  const struct gb_session_opts *o,
                                  void (*each)(void *ctx, const struct gb_record *rec), void *ctx);

/* ---- the occupancy truth table ---- */

struct gb_truth_summary {
    int rows;                    /* configurations recorded */
    int modules;                 /* compiled kernel variants */
    int skipped;                 /* configurations the driver refused */
    char first_refusal[256];     /* the first of them, with the driver's error name */
    char device_name[128];       /* as written in the table (commas replaced) */
};

/* Records cuOccupancyMaxActiveBlocksPerMultiprocessor for compiled variants
 * of kernels/occupancy.cu on the session's GPU into the CSV `path`, with
 * the session's metadata beside it in `<path>.run.json` (both written
 * atomically; finishes s->info). The table's format:
 * tests/data/occupancy/README.md. */
GB_API enum gb_status gb_session_record_occupancy_truth(struct gb_session *s, const char *path,
                                                 struct gb_truth_summary *sum);

#endif
