/* fleet_loop.h - the fleet's loop: every member measures the plan and the
 * first gathers their records (docs/fleet.md). Under mpirun or srun each
 * rank is a member on its own GPU (gb_fleet_loop_mpi); with --all-devices
 * this process forks one member per local GPU (gb_fleet_loop_devices).
 *
 * The loop never prints: it tells the caller what happens through hooks,
 * and the caller makes the run directory, writes the gathered run and
 * shows it (`gpubound run --fleet`, `--all-devices`: src/cli/cmd_fleet_run.c).
 * Exit codes are the command's (0 ok, 1 failed, 2 usage, 3 no GPU), since
 * each member's own is recorded with its part.
 */
#ifndef GPUBOUND_FLEET_LOOP_H
#define GPUBOUND_FLEET_LOOP_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/measure.h"
#include "gpubound/results.h"
#include "gpubound/status.h"

struct gb_fleet_part;

/* A member: "rank" or "device", its number and how many there are. */
struct gb_fleet_who {
    const char *what;
    int member, size;
};

struct gb_fleet_loop_opts {
    const char *command_line;
    int quick;
    int device;                  /* the GPU every rank takes (--device), or -1 */
    struct gb_measure_opts measure;
    /* A member's progress, called in the member's own process; either may be NULL. */
    enum gb_status (*started)(void *ctx, const struct gb_fleet_who *who, const struct gb_run_info *info,
                              size_t n_points);
    void (*point)(void *ctx, const struct gb_fleet_who *who, size_t done, size_t total,
                  const struct gb_plan_item *item, const struct gb_record *rec);
    /* A member measured: its part, state, reason and exit code set. */
    void (*ended)(void *ctx, const struct gb_fleet_who *who, const struct gb_fleet_part *part);
    /* A step failed: `what` failed (gb_error_message() says why; `todo`
     * may be NULL); returns the exit code it is worth. Required. */
    int (*failed)(void *ctx, enum gb_status st, const char *what, const char *todo);
    /* In the gathering process, before any member measures: makes the run
     * directory; -1 when ready, else the exit code. Required. */
    int (*prepare)(void *ctx);
    /* ... undoes prepare when the loop stops before finish. Required. */
    void (*unprepare)(void *ctx);
    /* In the gathering process: the n parts (the lost ones recorded as
     * failed, with why) and its own exit code so far; writes and shows the
     * run and returns the exit code. Required. */
    int (*finish)(void *ctx, struct gb_fleet_part *parts, size_t n, int own_exit);
    void *ctx;
};

/* This process as one rank of an MPI job (rank 0 of 1 without a
 * launcher): rank 0 prepares, every rank measures, rank 0 gathers and
 * finishes while the others wait for it (a launcher ends the whole job
 * when one rank exits non-zero). The exit code of this rank in *exit_code.
 * Returns GB_ERR_USAGE, and runs nothing, when MPI cannot be opened; else
 * GB_OK (failures after that are told to o->failed and in *exit_code). */
GB_API enum gb_status gb_fleet_loop_mpi(const struct gb_plan *plan, const struct gb_fleet_loop_opts *o,
                                 int *exit_code);

/* One member per GPU of this host, each in a process of its own (the GPUs
 * are counted in a child, so that this process starts no CUDA context
 * before it forks). *exit_code: 0 when every device measured every point,
 * 3 when none had a usable GPU, else 1, unless finish says otherwise.
 * Returns the error, and runs nothing, when the GPUs cannot be counted
 * (GB_ERR_NO_GPU when there are none); else GB_OK (a temporary directory
 * that cannot be made is told to o->failed, after unprepare). */
GB_API enum gb_status gb_fleet_loop_devices(const struct gb_plan *plan, const struct gb_fleet_loop_opts *o,
                                     int *exit_code);

#endif
