/* cmd_tune_bd.h - the model strategy's breakdown surrogate in the CLI: the
 * breakdown fitted (gb_lpbm_fit_run) on the tuning run's records measured
 * so far, read back from its run directory (a live tune records counters
 * for it; a replay copies the sweep's records with theirs), and every
 * configuration predicted with gb_lpbm_predict_at (mean and 95% interval),
 * the unmeasured ones from the spec's launch and the counters' power law.
 * It refuses, saying why, when the fit fails or the honesty rule says the
 * model does not explain the measured points. */
#ifndef GB_CLI_CMD_TUNE_BD_H
#define GB_CLI_CMD_TUNE_BD_H

#include "gpubound/measure.h"
#include "gpubound/bench_inflight.h"
#include "gpubound/tune.h"

struct gb_tune_bd {
    const char *const *dir;     /* the tuning run's directory (read at each fit) */
    const char *bench;
    const struct gb_plan *plan; /* every configuration, the space's order */
    char spec[4096];            /* the spec's path, or "": the run's own */
    double *mean, *lo, *hi;     /* the last fit's predictions */
    struct gb_inflight_reader *reader; /* the kernel's loads in flight, read at the first fit */
};

/* A surrogate over *bd (filled by the caller, zeroed otherwise; its arrays
 * are made here). Release bd with gb_tune_bd_release; the surrogate's own
 * release is NULL. GB_ERR_NOMEM. */
enum gb_status gb_tune_bd_surrogate(struct gb_tune_bd *bd, struct gb_tune_surrogate *out);
void gb_tune_bd_release(struct gb_tune_bd *bd);

#endif
