/* cli_spec.h - kernel spec files on the command line: `run` and `list`
 * take a spec path wherever a suite name goes. */
#ifndef GB_CLI_SPEC_H
#define GB_CLI_SPEC_H

#include <stddef.h>

#include "gpubound/measure.h"

/* Replaces every argument of args[0..n) that names a spec file
 * (gb_spec_is_path) by its suite's selector, registering the suite. The
 * new strings are collected in *owned (free with gb_cli_spec_free); the
 * spec paths as given are joined into `paths` (", " between them). Returns
 * -1 when all went well, else the exit code after printing one line (a bad
 * spec is a usage error: 2). */
int gb_cli_spec_args(int n, char **args, char ***owned, char *paths, size_t paths_n);
void gb_cli_spec_free(char **owned);

/* Evaluates every planned point of a spec suite without a GPU: returns -1
 * when all are sound, else prints the first problem and returns 2. */
int gb_cli_spec_check(const struct gb_plan *plan);

/* Copies the spec (and sources) of every spec suite of `plan` into the run
 * directory `out` (spec/<suite>/). */
enum gb_status gb_cli_spec_save(const char *out, const struct gb_plan *plan);

#endif
