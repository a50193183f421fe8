/* export.h - a run directory, or a comparison of runs, as one JSON document
 * in memory: the entry points for programs in other languages (the Python
 * package in python/ calls them through ctypes). The documents are written
 * by the same code as the files and outputs they mirror (results.json's
 * records, run.json, `gpubound compare --format json`), so there is one
 * writer of each format; src/report/export.c.
 *
 * Every function returns enum gb_status; on failure *out is NULL and
 * gb_error_message() (status.h, thread-local: read it on the calling
 * thread) holds one line saying what failed and why. A document is
 * malloc'ed UTF-8 text, freed with gb_export_free.
 */
#ifndef GPUBOUND_EXPORT_H
#define GPUBOUND_EXPORT_H

#include "gpubound/api.h"

#include "gpubound/status.h"

/* The version of the export documents ("gpubound-export/1"). */
#define GB_EXPORT_FORMAT "gpubound-export/1"

/* Loads the run directory `dir` with gb_run_load (every range and
 * consistency check of the loader applies: a malformed run is an error,
 * never a partial document) and writes it as
 *   {"format": "gpubound-export/1",
 *    "meta": {"dir", "records_file", "truncated", "warnings": [...],
 *             "warnings_total"},
 *    "run": <run.json as gpubound writes it>,
 *    "records": [<each record as a line of results.json>]}
 * into *out. GB_ERR_IO, GB_ERR_FORMAT (as gb_run_load), GB_ERR_NOMEM,
 * GB_ERR_USAGE (a NULL argument). Thread-safe for distinct outputs. */
GB_API enum gb_status gb_export_run_json(const char *dir, char **out);

/* Compares the runs `base` (n_base directories) with the runs `new_`
 * (n_new), as `gpubound compare BASE NEW --alpha A --threshold T
 * --format json` does with its default anchors (each GPU's peak memory
 * bandwidth when the sides ran on different GPUs), and writes the same
 * JSON document into *out. alpha in (0, 0.5), threshold in [0, 1) (a
 * fraction: 0.02 is 2%). GB_ERR_USAGE for a bad argument or when no
 * point of one side matches the other; as gb_export_run_json otherwise. */
GB_API enum gb_status gb_export_compare_json(const char *const *base, int n_base, const char *const *new_, int n_new,
                                      double alpha, double threshold, char **out);

/* Frees a document returned above; safe with NULL. */
GB_API void gb_export_free(char *doc);

/* The library's version ("0.1.0") and git revision, as `gpubound --version`. */
GB_API const char *gb_export_version(void);

#endif
