/* open.h - finding and opening a run's records file, plain or compressed. */
#ifndef GPUBOUND_RESULTS_OPEN_H
#define GPUBOUND_RESULTS_OPEN_H

#include <stddef.h>
#include <stdio.h>

#include "gpubound/status.h"

/* The most bytes a run.json may hold, for its writers and its loaders
 * alike: a fleet run's members (about 2 KiB each) make it grow with the
 * fleet, and 64 MiB hold some 30000 of them; a fleet whose run.json would
 * be larger is refused by the writer rather than written unreadable. */
#define GB_RUN_JSON_MAX (64L << 20)

/* Opens the records of run directory `dir` for reading: results.json when
 * present, else results.json.gz (gzip, as written by `gzip -9`), whose
 * decompressed text is read through the returned stream exactly as the
 * plain file would be. `path` receives the name of the file opened (for
 * messages). The caller closes the stream with fclose. GB_ERR_IO when
 * neither file can be read, GB_ERR_FORMAT when the .gz is not valid gzip
 * (a cut .gz yields what decompressed before the cut), GB_ERR_NOMEM. */
enum gb_status gb_results_open(const char *dir, char *path, size_t n, FILE **out);

#endif
