/* spec.h - kernel spec files: the user's own kernel as a suite.
 *
 * A kernel spec is one JSON file (docs/kernel-spec.md) naming a CUDA source,
 * its entry point, the axes it is swept over (each passed as a -D define),
 * the launch geometry and arguments as expressions of the axes, and how its
 * outputs are verified. gb_spec_register_path reads and checks it and
 * registers it as a heap suite (gb_suite_register) whose benches' ctx is the
 * parsed spec: plans, the harness, records, reports and models see an
 * ordinary suite.
 *
 * Expressions are evaluated by GNU libmatheval (arithmetic, + - * / ^,
 * parentheses, sqrt, log, exp, abs ...); this module adds only what
 * libmatheval lacks: ceil(), floor(), min(a, b, ...), max(a, b, ...), the
 * comparisons < <= > >= == != (1 or 0) and && || between them.
 *
 * Nothing here prints or exits. Loading and registering are for one thread;
 * evaluating expressions (and a spec bench's kernel_opts and admit) is
 * thread-safe: every call into libmatheval holds one lock.
 */
#ifndef GPUBOUND_SPEC_H
#define GPUBOUND_SPEC_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/status.h"
#include "gpubound/suite.h"

#define GB_SPEC_MAX_ARGS 32
#define GB_SPEC_MAX_DEFINES 8

/* ---- expressions ---- */

struct gb_expr;

/* The longest expression text and the deepest nesting of parentheses
 * (calls included) an expression may have: parsing is then linear in the
 * text's length, and neither it nor the evaluation can run out of stack. */
#define GB_EXPR_MAX_LEN 4096
#define GB_EXPR_MAX_DEPTH 64

/* Parses `text` whose names are `names` (n_names of them; the caller keeps
 * them alive while the expression lives). On GB_ERR_USAGE the message says
 * what is wrong with the text alone, e.g. `unknown name "bsx"`,
 * `unbalanced parentheses`, `min() takes at least 2 arguments`, a text
 * longer than GB_EXPR_MAX_LEN or nested deeper than GB_EXPR_MAX_DEPTH: the
 * caller puts the file, field and text in front of it. GB_ERR_NOMEM. Free
 * with gb_expr_free. */
GB_API enum gb_status gb_expr_parse(const char *text, const char *const *names, int n_names,
                             struct gb_expr **out);

/* Evaluates `e` with values[i] the value of names[i] of its parse. A
 * comparison, && and || give 1 or 0. The value may be NaN or infinite (a
 * division by zero): the caller decides what it accepts. */
GB_API enum gb_status gb_expr_eval(const struct gb_expr *e, const double *values, double *out);

/* The text the expression was parsed from. */
GB_API const char *gb_expr_text(const struct gb_expr *e);

/* The parts the expression was parsed into (its nodes, each with its own
 * evaluator): what it costs to hold, for a caller bounding many of them. */
GB_API int gb_expr_size(const struct gb_expr *e);

/* Whether the expression uses names[i] (directly or inside a call). */
GB_API int gb_expr_uses(const struct gb_expr *e, int i);

GB_API void gb_expr_free(struct gb_expr *e);

/* Whether `name` is taken by the expression language: a function or
 * constant of libmatheval (sin, exp, pi, e, ...) or of this layer (ceil,
 * floor, min, max). An axis or define of that name is refused. */
GB_API int gb_expr_reserved(const char *name);

/* ---- spec files ---- */

struct gb_spec;

/* Whether a command-line argument names a spec file rather than a suite:
 * it ends in ".json", contains ".json/" (a spec and one of its benches:
 * "my.json/tiled"), or contains a '/' and names an existing regular file.
 * "bandwidth/read" (a suite and bench) is not one. */
GB_API int gb_spec_is_path(const char *arg);

/* Reads and checks the spec file `path`. Every field is validated; the
 * first problem is GB_ERR_USAGE with one line naming the file, the field
 * path and why: `examples/sgemm/spec.json: benches[0].grid[1]: "ceil(n /
 * bsx)": unknown name "bsx"`. GB_ERR_IO when the spec or a file it names
 * cannot be read. Free with gb_spec_free (unless handed to gb_spec_suite). */
GB_API enum gb_status gb_spec_load(const char *path, struct gb_spec **out);

GB_API void gb_spec_free(struct gb_spec *s);

/* The suite name and file path of a loaded spec. */
GB_API const char *gb_spec_name(const struct gb_spec *s);
GB_API const char *gb_spec_file(const struct gb_spec *s);

/* Makes the heap suite of `spec`, which it then owns (on failure too: the
 * spec is freed). The suite's benches have kernel_source (the spec's first
 * source; the others are NVRTC headers), kernel_opts (every axis as
 * -DNAME=value, then the defines), admit (the restrictions), setup, poison,
 * launch, verify, teardown, and ctx = the parsed bench; its charts are time
 * and derived throughput against each bench's first axis. Release it with
 * gb_spec_suite_free (what gb_suite_register is given). */
GB_API enum gb_status gb_spec_suite(struct gb_spec *spec, struct gb_suite **out);
GB_API void gb_spec_suite_free(struct gb_suite *s);

/* Loads `path` (a spec file, optionally followed by "/BENCH") and registers
 * its suite. *selector is set to what a plan takes ("sgemm" or
 * "sgemm/tiled"), owned by the caller (free). A spec whose suite is
 * registered already from the same file is not loaded twice; another
 * suite of that name is GB_ERR_USAGE. */
GB_API enum gb_status gb_spec_register_path(const char *path, char **selector);

/* The spec a registered suite was made from, or NULL for a built-in suite. */
GB_API const struct gb_spec *gb_spec_of_suite(const struct gb_suite *s);

/* Evaluates every expression of a spec bench's point (its defines, grid,
 * block, shared memory, kernel name, counts, scalars, bytes, flops and its
 * reference's) without a GPU: GB_ERR_USAGE naming the file, the field and
 * the point when one is not a non-negative integer where it must be (or not
 * a number). GB_OK for points of other benches. */
GB_API enum gb_status gb_spec_check_point(const struct gb_point *p);

/* ---- a loaded spec's benches as text (gpubound breakdown) ---- */

/* The fields of the optional "lpbm" object of a bench, in this order:
 * expressions of the bench's axes and defines, per launch, and a note. */
#define GB_SPEC_LPBM_FIELDS 4
enum gb_spec_lpbm { GB_SPEC_LPBM_OPS, GB_SPEC_LPBM_GLOBAL, GB_SPEC_LPBM_SHARED, GB_SPEC_LPBM_NOTE };

/* One bench of a loaded spec with every expression as written in the file
 * (a number as its digits; a block dimension not given is the
 * block_size_* axis or "1", as the launch takes it). The pointers are the
 * spec's: valid while it lives. */
struct gb_spec_bench_text {
    const char *name;
    const char *kernel;                          /* the name as written, "reduce<{block_size_x}>" */
    const char *source;                          /* its source file, resolved against the spec's directory */
    int n_axes;
    const char *axes[GB_MAX_AXES];
    unsigned problem_mask;                       /* bit a: axis a is a problem axis */
    int n_defines;
    const char *define_names[GB_SPEC_MAX_DEFINES], *define_exprs[GB_SPEC_MAX_DEFINES];
    int n_args;                                  /* in the kernel's parameter order */
    const char *arg_names[GB_SPEC_MAX_ARGS];
    const char *arg_values[GB_SPEC_MAX_ARGS];    /* a scalar's value; NULL for a buffer */
    const char *arg_counts[GB_SPEC_MAX_ARGS];    /* a buffer's element count; NULL for a scalar */
    int arg_elem_bytes[GB_SPEC_MAX_ARGS];        /* a buffer's bytes per element; 0 for a scalar */
    const char *block[3], *grid[3];
    const char *bytes, *flops;                   /* "" when not given */
    const char *lpbm[GB_SPEC_LPBM_FIELDS];       /* "" when not given */
};

/* The number of benches of a loaded spec. */
GB_API int gb_spec_n_benches(const struct gb_spec *s);

/* Fills *out with bench i (0 <= i < gb_spec_n_benches) of `s`. */
GB_API void gb_spec_bench_text(const struct gb_spec *s, int i, struct gb_spec_bench_text *out);

/* Adds to `out` the SHA-256 of the spec file and of each of its sources
 * (as read when the spec was loaded) and, when `with_data`, of each init
 * and reference file its benches name (read now), each named
 * "<suite>/<path inside the spec's directory>": the spec file by its base
 * name, the others as written (a data file reached through a symbolic link
 * inside the directory, by the path it resolves to). So named, the spec
 * file and its sources are the files of the copy a run keeps
 * (gb_spec_save_copy) under DIR/spec/. GB_ERR_IO when a data file cannot
 * be read; GB_ERR_USAGE when `out` cannot take them. */
GB_API enum gb_status gb_spec_hashes(const struct gb_spec *s, int with_data, struct gb_file_hashes *out);

/* Adds to `out` the SHA-256 of what of the spec file a run measures,
 * named "<suite>/<its base name>" as by gb_spec_hashes: the spec as
 * compact JSON with sorted keys, without what only models read (its
 * benches' "lpbm" objects) and without comments (members named "_..."). A
 * spec whose file changed since a run but whose digest here did not (a
 * model hint added) still describes the kernels and launches measured.
 * GB_ERR_NOMEM; GB_ERR_USAGE when `out` is full. */
GB_API enum gb_status gb_spec_measured_hash(const struct gb_spec *s, struct gb_file_hashes *out);

/* Copies the spec file and its sources into <run_dir>/spec/<suite>/ (the
 * run can then be read, re-run and modelled without the original files).
 * GB_ERR_IO. */
GB_API enum gb_status gb_spec_save_copy(const struct gb_spec *s, const char *run_dir);

#endif
