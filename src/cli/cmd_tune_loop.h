/* cmd_tune_loop.h - `gpubound tune`'s search: the tuner driven through the
 * run loop (gb_session_run and its `more` hook), or over a recorded sweep
 * (--replay), into an ordinary run directory with tune.json beside it. */
#ifndef GB_CLI_CMD_TUNE_LOOP_H
#define GB_CLI_CMD_TUNE_LOOP_H

#include "gpubound/measure.h"
#include "gpubound/tune.h"

#define GB_TUNE_FILE "tune.json"
#define GB_TUNE_FORMAT "gpubound-tune/1"

struct gb_tune_args {
    long budget, seed, batch, device;
    const char *strategy, *bench, *out, *replay;
    int resume, quick;
    const char **sets;
    int n_sets;
    double max_time_s, ci_pct;
    char **spec_owned;
    char spec_paths[1024];
    char out_buf[128];
};

/* Searches `space` (the configurations of `plan`, in order) as `a` says
 * and fills *ans; prints progress and errors (one line) on stderr.
 * Returns the exit code. */
int gb_tune_search(struct gb_tune_args *a, const struct gb_plan *plan, const struct gb_tune_space *space,
                   struct gb_tune_answer *ans);

#endif
