/* cli_roofs.h - the roofs a command places a run under (src/cli/cli_roofs.c):
 * a ceilings run given or found beside the run, else the guide figures. */
#ifndef GB_CLI_ROOFS_H
#define GB_CLI_ROOFS_H

#include <stddef.h>

#include "gpubound/report.h"
#include "gpubound/results.h"
#include "gpubound/roofline.h"
#include "gpubound/status.h"

/* How to record a ceilings run, for messages. */
#define GB_CEILINGS_HINT GB_REPORT_CEILINGS_HINT

/* GB_OK when the roofs of ceilings run `cr` (directory `ceil_dir`) may
 * bound `what` (a run or a model, for the message), measured on the GPU
 * named `dev`: the same name, or a name unknown on either side (dev NULL or
 * empty, cr without a device). Otherwise GB_ERR_USAGE with the one line
 * that says the roofs of one kind of GPU do not bound another, ending with
 * `escape` (the command's way round it, e.g. " (or give --other-gpu)";
 * NULL when it has none). */
enum gb_status gb_cli_roofs_same_gpu(const char *ceil_dir, const struct gb_run *cr, const char *what,
                                     const char *dev, const char *escape);

/* The roofs of `run` into *c: those of ceilings run `ceil_dir`, or the guide
 * figures of the run's device when it is NULL. A ceilings run of another
 * GPU name is refused (GB_ERR_USAGE) unless `other_gpu`, then said on
 * stderr. GB_ERR_USAGE when ceil_dir is NULL and the run has no device. */
enum gb_status gb_cli_roofs(const char *ceil_dir, int other_gpu, const struct gb_run *run, struct gb_ceilings *c);

/* Looks for a ceilings run of `run`'s GPU beside it: a directory whose name
 * starts with "ceilings" in the run's parent directory or the one above
 * (data/h100/ceilings-DATE for data/h100/corpus-DATE/gemm), whose run.json
 * names the same device; the last such name in byte order (the newest of
 * dated names). Its path into buf and 1; 0 when there is none. */
int gb_cli_find_ceilings(const struct gb_run *run, char *buf, size_t n);

#endif
