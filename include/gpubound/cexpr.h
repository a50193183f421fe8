/* cexpr.h - integer-and-real arithmetic over C expression text, as it
 * appears in a kernel's source (loop bounds, array extents) or in a kernel
 * spec's fields: numbers (with C suffixes), names (resolved by a callback,
 * "blockDim.x" being one name), + - * / % << >> < <= > >= == != && || ! ?:,
 * parentheses, casts to int/float/unsigned types, and the functions min,
 * max, ceil, floor, sqrt, log2, ilog2 (floor of log2), clog2 (ceiling of
 * log2), abs. Division follows C: integer operands give a truncated
 * quotient. In spec mode '^' is a power (libmatheval's meaning) and every
 * number is real; in C mode '^' is exclusive or.
 *
 * Pure computation; thread-safe.
 */
#ifndef GPUBOUND_CEXPR_H
#define GPUBOUND_CEXPR_H

#include "gpubound/api.h"

#include "gpubound/status.h"

/* The value of a name, or GB_ERR_FORMAT (with gb_error_set) when unknown.
 * *is_int says whether the value is an integer in C's sense. */
typedef enum gb_status (*gb_cexpr_lookup)(void *ctx, const char *name, double *v, int *is_int);

enum gb_cexpr_mode { GB_CEXPR_C = 0, GB_CEXPR_SPEC = 1 };

/* Evaluates `text` into *out. GB_ERR_FORMAT, naming the expression and the
 * place, for a syntax error or an unknown name (from `lookup`, which may be
 * NULL: then every name is unknown); a division by zero is GB_ERR_NUMERIC. */
GB_API enum gb_status gb_cexpr_eval(const char *text, enum gb_cexpr_mode mode, gb_cexpr_lookup lookup,
                             void *ctx, double *out);

#endif
