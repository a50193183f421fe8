/* cmd_tune_inputs.h - the breakdown's inputs of every configuration of a
 * tuning space before it is measured, for the model strategy: its launch
 * (grid, block, registers and occupancy: what `gpubound check` computes
 * without a GPU) and its per-thread counts (the source analysis or the
 * spec), built by the breakdown's own builder (lpbm_input.h). With --replay
 * they come from the replayed sweep's records and its spec copy: their
 * launch metrics, never their times. */
#ifndef GB_CLI_CMD_TUNE_INPUTS_H
#define GB_CLI_CMD_TUNE_INPUTS_H

#include <stddef.h>

#include "gpubound/lpbm_input.h"
#include "gpubound/measure.h"

struct gb_tune_inputs {
    struct gb_lpbm_input in;
    size_t *pt;                  /* space index -> in.pts index, or (size_t)-1 */
    size_t n;
    int have;                    /* in was built */
    char why[512];               /* why not, when have is 0 */
};

/* Builds the inputs of the plan's configurations (bench `bench`) from the
 * recorded run `dir`. Never fails: when they cannot be built, have is 0
 * and why says why (the breakdown then refuses, naming it). */
void gb_tune_inputs_replay(const char *dir, const struct gb_plan *plan, struct gb_tune_inputs *out);
void gb_tune_inputs_release(struct gb_tune_inputs *t);

/* gb_tune_lpbm_fn over a struct gb_tune_inputs: 1 and *p when
 * configuration idx has inputs. */
int gb_tune_inputs_get(void *ctx, size_t idx, struct gb_lpbm_point *p);

#endif
