/* session_loop.h - the run loop of a session (session.c) with the two
 * calls that need a GPU behind pointers, so that a unit test drives it
 * with fakes: every class of failure a point can end with, and what the
 * loop then does (tests/unit/test_session_loop.c). */
#ifndef GB_MEASURE_SESSION_LOOP_H
#define GB_MEASURE_SESSION_LOOP_H

#include "gpubound/session.h"

struct gb_session_loop {
    const struct gb_plan *plan;
    int quick;
    struct gb_gpu *gpu;
    struct gb_run_writer *w;             /* open; each record is added as its point ends */
    struct gb_run_info *info;            /* counts, write time, incomplete_reason */
    const struct gb_measure_opts *mo;
    struct gb_measure_share *share;      /* released before a context is recreated */
    const struct gb_session_hooks *hooks;
    /* gb_measure_point and gb_gpu_recover in a real session. */
    enum gb_status (*measure)(void *ctx, struct gb_gpu *g, struct gb_point *p, const struct gb_measure_opts *o,
                              struct gb_record *rec);
    enum gb_status (*recover)(void *ctx, struct gb_gpu *g);
    void *ctx;
};

/* Measures and writes every point of l->plan. A point that ends with
 * GB_ERR_DEVICE_LOST is written, the shared state released and the
 * context recovered, and the loop goes on; GB_ERR_TIMEOUT writes the point
 * and stops; GB_ERR_INTERRUPTED stops without writing it; a failed
 * recovery stops. *measure_st is the status that stopped the loop (GB_OK
 * when it ran to the end), l->info->incomplete_reason says why in words.
 * Returns a write error (the loop stopped at it), else GB_OK. */
enum gb_status gb_session_loop_run(const struct gb_session_loop *l, enum gb_status *measure_st);

/* "suite/bench axis=v ..." of a plan item, as progress lines show it. */
void gb_session_point_label(const struct gb_plan_item *it, char *buf, size_t n);

#endif
