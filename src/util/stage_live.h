/* stage_live.h - the stages this process has open, kept for a signal
 * handler (gb_stage_remove_open in stage.h); only stage.c registers them.
 * Not thread-safe: stages are opened and closed by one thread. */
#ifndef GPUBOUND_UTIL_STAGE_LIVE_H
#define GPUBOUND_UTIL_STAGE_LIVE_H

#include <signal.h>

/* Keeps stage `tmp` (for destination `dir`) as open; its slot (1..), or 0
 * when every slot is taken (the stage is then left to the next sweep if
 * the process is killed). */
int gb_stage_live_add(const char *tmp, const char *dir);

/* Forgets slot `slot` (0: nothing). */
void gb_stage_live_drop(int slot);

/* Around a commit: `on` 1 holds off SIGINT and SIGTERM (the mask before in
 * *saved) and marks the slot as committing, so that a handler never removes
 * a stage whose files are half moved; `on` 0 undoes both, and a signal
 * that came meanwhile is delivered then. */
void gb_stage_live_committing(int slot, int on, sigset_t *saved);

#endif
