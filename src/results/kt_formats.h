/* kt_formats.h - Kernel Tuner's files: a recorded run's configurations of
 * one bench written as Kernel Tuner's cache file (its resumable cache, the
 * one its simulation mode replays) or as its T4 results file, and a Kernel
 * Tuner cache read back as records (docs/tuning.md, "Kernel Tuner's files").
 *
 * Times: a record's median is written as Kernel Tuner's "time" (ms), its
 * kept samples as "times"; a cache read back gives records whose median is
 * Kernel Tuner's "time" (the mean of its event-timed launches), with
 * time_source GB_KT_TIME_SOURCE so that every output names it. Library
 * code: nothing here prints or exits. */
#ifndef GB_RESULTS_KT_FORMATS_H
#define GB_RESULTS_KT_FORMATS_H

#include <stddef.h>
#include <stdio.h>

#include "gpubound/results.h"
#include "gpubound/status.h"

#define GB_KT_TIME_SOURCE "kernel-tuner-mean"
#define GB_KT_SUITE "kernel-tuner"
#define GB_KT_TIME_NOTE "time: Kernel Tuner's mean of its launches"

enum gb_kt_format { GB_KT_CACHE, GB_KT_T4 };

/* The bench of `run` to export: `bench` when given (GB_ERR_USAGE when the
 * run has no record of it), else the run's only bench (GB_ERR_USAGE naming
 * two when it has more). */
enum gb_status gb_kt_bench(const struct gb_run *run, const char *bench, const char **out);

/* Writes the records of `bench` in `run` to f as format `fmt` (the device
 * name is the run's, "unknown" when it has none). GB_ERR_USAGE when the bench
 * has no record, GB_ERR_IO, GB_ERR_NOMEM. */
enum gb_status gb_kt_write(FILE *f, const struct gb_run *run, const char *bench, enum gb_kt_format fmt);

/* What a Kernel Tuner cache holds: its records (suite GB_KT_SUITE, bench
 * the kernel's name, an axis per tuning parameter, in tune_params_keys'
 * order), the parameters' names, the device and kernel names and the
 * problem size as JSON text. */
struct gb_kt_cache {
    struct gb_record *recs;
    size_t n;
    char **keys;
    int n_keys;
    char device_name[128];
    char kernel_name[64];
    char problem_size[256];
};

/* Reads the Kernel Tuner cache file `path`. GB_ERR_IO when it cannot be
 * read, GB_ERR_FORMAT (one line naming the file and what is wrong) when it
 * is not a Kernel Tuner cache: not JSON, a missing or mistyped field, an
 * entry whose key does not match its parameter values, a time that is
 * neither a number nor one of Kernel Tuner's failure names. An entry cut
 * at the end (Kernel Tuner appends entries as it goes, and a killed run
 * leaves no closing braces) is read as far as it is whole. */
enum gb_status gb_kt_cache_read(const char *path, struct gb_kt_cache *out);
void gb_kt_cache_release(struct gb_kt_cache *c);

#endif
