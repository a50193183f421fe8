/* replace.h - the one guard against replacing an output made from more
 * points than the output that would replace it (a model fitted on a cut
 * run, a report of a run that lost records): every command that rewrites a
 * model, a table or a report it wrote before asks it, with the count its
 * own file records and the count it now has. */
#ifndef GPUBOUND_UTIL_REPLACE_H
#define GPUBOUND_UTIL_REPLACE_H

#include <stddef.h>

#include "gpubound/status.h"

/* What the refusal calls things: "FILE MADE BEFORE UNIT and NOW NOW; it is
 * not replaced (REMEDY)". */
struct gb_replace_words {
    const char *made;    /* "was fitted on", "was made from" */
    const char *unit;    /* "configurations", "observations", "points" */
    const char *now;     /* "this fit has", "this run holds", "runs/x now holds" */
    const char *remedy;  /* GB_REPLACE_OUT_ELSEWHERE, or "--force replaces it" */
};

#define GB_REPLACE_OUT_ELSEWHERE "--force replaces it, --out writes elsewhere"

/* GB_ERR_UNSUPPORTED with the one line above when `before`, the points the
 * existing `file` was made from (0 when there is none or it cannot be
 * read), exceeds `now` and `force` is 0; else GB_OK, setting no error. */
enum gb_status gb_replace_check(const char *file, size_t before, size_t now, int force,
                                const struct gb_replace_words *w);

#endif
