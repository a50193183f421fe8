/* session_loop.h - the run loop of a session (session.c) with the call
 * that needs a GPU behind a pointer, so that a unit test drives it
 * with fakes: every class of failure a point can end with, and what the
 * loop then does, and the reopening of a run that goes on after a fault
 * (tests/unit/test_session_loop.c). */
#ifndef GB_MEASURE_SESSION_LOOP_H
#define GB_MEASURE_SESSION_LOOP_H

#include "gpubound/session.h"

struct gb_session_loop {
    const struct gb_plan *plan;
    size_t first;                        /* the first item measured (those before are recorded) */
    int quick;
    struct gb_gpu *gpu;
    struct gb_run_writer *w;             /* open; each record is added as its point ends */
    struct gb_run_info *info;            /* counts, write time, incomplete_reason */
    const struct gb_measure_opts *mo;
    struct gb_measure_share *share;      /* released after a fault */
    const struct gb_session_hooks *hooks;
    /* gb_measure_point in a real session. */
    enum gb_status (*measure)(void *ctx, struct gb_gpu *g, struct gb_point *p, const struct gb_measure_opts *o,
                              struct gb_record *rec);
    void *ctx;
};

/* Measures and writes the points of l->plan from l->first on. A point
 * that ends with GB_ERR_DEVICE_LOST is written and the shared state
 * released; the loop stops there unless it was the last point (the
 * process cannot use the device again): *next is the item to go on from
 * in a new process. GB_ERR_TIMEOUT writes the point and stops;
 * GB_ERR_INTERRUPTED stops without writing it. *measure_st is the status
 * that stopped the loop (GB_OK when it ran to the end, *next then
 * plan->n), l->info->incomplete_reason says why in words. Returns a write
 * error (the loop stopped at it), else GB_OK. */
enum gb_status gb_session_loop_run(const struct gb_session_loop *l, enum gb_status *measure_st, size_t *next);

/* Reopens run directory `dir`, cut short by a fault, to go on from
 * rz->next: loads it (gb_run_load), checks that it is that run (the same
 * started_utc, not complete, rz->next records naming the plan's first
 * items; GB_ERR_USAGE otherwise), opens a new writer on it (*w) and writes
 * the records back, counted in *info. *info (filled for this process)
 * keeps the run's started_utc, timed and write times and wall parts, takes
 * rz->restarts, and *prior gets the earlier processes' compile counts. */
enum gb_status gb_session_resume_open(const char *dir, const struct gb_session_resume *rz, const struct gb_plan *plan,
                                      struct gb_run_info *info, struct gb_run_info *prior, struct gb_run_writer **w);

/* "suite/bench axis=v ..." of a plan item, as progress lines show it. */
void gb_session_point_label(const struct gb_plan_item *it, char *buf, size_t n);

#endif
