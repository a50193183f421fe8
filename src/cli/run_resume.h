/* run_resume.h - `gpubound run` going on after a kernel fault: a sticky
 * error leaves the process unable to use CUDA, so the run starts itself
 * anew (the same binary, the same arguments) with a marker in the
 * environment that says which run directory to continue and from where. */
#ifndef GB_CLI_RUN_RESUME_H
#define GB_CLI_RUN_RESUME_H

#include <stddef.h>

#include "gpubound/session.h"

/* The variable that carries the marker: "NEXT RESTARTS T_START STARTED_UTC DIR". */
#define GB_RUN_RESUME_ENV "GPUBOUND_RESUME"
/* Faults a run goes on after; the next one stops it. */
#define GB_RUN_MAX_RESTARTS 16

/* Reads and removes the marker. Returns 0 when there is none, 1 when *rz
 * and `dir` (n bytes) are filled, else -1 with `why` (one line). `out`:
 * the --out given (NULL: none); a marker for another directory is refused. */
int gb_run_resume_take(const char *out, struct gb_session_resume *rz, char *dir, size_t n, char *why, size_t why_n);

/* Writes the marker for a run in `dir` that goes on from item `next`
 * after its restarts-th fault into buf; -1 when it does not fit. */
int gb_run_resume_format(char *buf, size_t n, const char *dir, size_t next, int restarts, double t_start,
                         const char *started_utc);

/* After a fault cut the session short (GB_ERR_DEVICE_LOST): says so in one
 * line and starts this binary anew with the marker (no return), or stops
 * with one line past GB_RUN_MAX_RESTARTS faults or when it cannot;
 * returns the exit code then. `prev`: this process's marker (NULL: the
 * run's first process); t_start: when the run began (monotonic). */
int gb_run_restart(const struct gb_session_result *res, const char *out, const struct gb_session_resume *prev,
                   double t_start);

#endif
