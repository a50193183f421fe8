/* spec_internal.h - what the files of the kernel spec module share: the
 * parsed spec (spec_parse.c), the values of a point (spec_point.c), the
 * arguments, buffers and verification (spec_args.c, spec_verify.c) and the
 * suite made from it (spec_suite.c). */
#ifndef GB_SPEC_INTERNAL_H
#define GB_SPEC_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpubound/gpu.h"
#include "gpubound/spec.h"
#include "gpubound/suite.h"
#include "suites/spec_cache.h"
/* The element types (enum gb_spec_type): the rows of GB_SD_TYPES. */
#include "../../kernels/spec_data.h"

#define GB_SPEC_MAX_RESTRICT 32
#define GB_SPEC_MAX_SOURCES 16
/* Names in a bench's scope: its axes, then its defines, then its reference's. */
#define GB_SPEC_MAX_NAMES (GB_MAX_AXES + 2 * GB_SPEC_MAX_DEFINES)

enum gb_spec_init { GB_SI_NONE = 0, GB_SI_RANDOM, GB_SI_CONSTANT, GB_SI_IOTA, GB_SI_FILE };
enum gb_spec_ref_kind { GB_SR_FIRST = 0, GB_SR_KERNEL, GB_SR_FILES };

/* A kernel name: literal text with {expr} parts, "reduce<{block_size_x}>". */
struct gb_spec_name {
    char *text;                  /* as written */
    int n_parts;                 /* expressions; literal pieces are n_parts + 1 */
    char **lit;
    struct gb_expr **part;
};

struct gb_spec_define {
    char *name;
    struct gb_expr *expr;
};

/* A kernel and its launch: the bench's own, or its reference kernel's. */
struct gb_spec_launch {
    struct gb_spec_name kernel;
    struct gb_expr *grid[3], *block[3];
    struct gb_expr *smem;        /* dynamic shared memory, bytes (NULL: 0) */
    struct gb_expr *max_smem;    /* the attribute to set (NULL: the rule of the contract) */
    int source;                  /* index into the spec's sources */
    int n_defines;               /* a reference's own defines (replace the bench's of the same name) */
    struct gb_spec_define defines[GB_SPEC_MAX_DEFINES];
};

struct gb_spec_arg {
    char *name;
    enum gb_spec_type type;
    int scalar;                  /* a "value"; else a device buffer of "count" elements */
    struct gb_expr *count;
    struct gb_expr *value;
    int output;
    double rtol, atol;
    enum gb_spec_init init;
    double a, b;                 /* random [a, b]; constant a; iota start a, step b */
    char *file;                  /* init file (its resolved path, inside the spec's directory) */
    char *ref_file;              /* reference "files": the expected values of this output (resolved) */
    long long file_size, ref_size;  /* their sizes when the spec was read */
};

struct gb_spec;

/* One bench: the row's ctx. */
struct gb_spec_bench {
    const struct gb_spec *spec;
    int index;                   /* in spec->benches, for messages */
    char *name, *help;
    int n_axes;
    struct gb_axis_def axes[GB_MAX_AXES];   /* strings owned here */
    int n_defines;
    struct gb_spec_define defines[GB_SPEC_MAX_DEFINES];
    const char *names[GB_SPEC_MAX_NAMES];   /* the scope: axes, defines */
    int n_names;
    struct gb_spec_launch launch;
    int n_restrict;
    struct gb_expr *restrict_[GB_SPEC_MAX_RESTRICT];
    int n_args;
    struct gb_spec_arg args[GB_SPEC_MAX_ARGS];
    enum gb_spec_ref_kind ref_kind;
    struct gb_spec_launch ref;   /* GB_SR_KERNEL */
    const char *ref_names[GB_SPEC_MAX_NAMES];  /* the reference's scope: the bench's + its defines */
    int n_ref_names;
    unsigned problem_mask;       /* bit a: axis a is a problem axis */
    struct gb_expr *bytes, *flops;
    char *lpbm[GB_SPEC_LPBM_FIELDS];  /* the "lpbm" object's fields as written (NULL: absent) */
    enum gb_cache_mode cache;
    double timeout_s;
    /* The bench's id in the cache of problems on the device (spec_cache.h;
     * 0 until its first point). */
    unsigned long cache_id;
};

struct gb_spec_source {
    char *name;                  /* as written in the spec (and as #included) */
    char *path;                  /* resolved against the spec's directory */
    char *text;
};

struct gb_spec {
    char *file;                  /* the path as given */
    char *text;                  /* its contents */
    char *dir;                   /* its directory */
    char *suite, *help;
    int n_sources;
    struct gb_spec_source sources[GB_SPEC_MAX_SOURCES];
    /* The sources but the first, as NVRTC headers of the first. */
    int n_headers;
    const char *header_names[GB_SPEC_MAX_SOURCES];
    const char *header_texts[GB_SPEC_MAX_SOURCES];
    int n_benches;
    struct gb_spec_bench *benches;
};

/* ---- the values of one point (spec_point.c) ---- */

/* Everything a point of a bench evaluates to. */
struct gb_spec_values {
    double v[GB_SPEC_MAX_NAMES];         /* the scope's values: axes, then defines */
    double rv[GB_SPEC_MAX_NAMES];        /* the reference's scope */
    char kernel[GB_KERNEL_NAME_LEN];     /* the kernel's name expression, evaluated */
    char ref_kernel[GB_KERNEL_NAME_LEN];
    unsigned grid[3], block[3], ref_grid[3], ref_block[3];
    unsigned smem, ref_smem;
    long max_smem, ref_max_smem;         /* -1: leave the attribute alone */
    size_t count[GB_SPEC_MAX_ARGS];      /* buffers: elements */
    double scalar[GB_SPEC_MAX_ARGS];     /* scalars: values */
    double bytes, flops;
};

/* The axis values of a point in the scope `v` (axes first), with the
 * defines evaluated after them. GB_ERR_USAGE naming the field and point. */
enum gb_status gb_spec_point_values(const struct gb_spec_bench *b, const struct gb_point *p,
                                    struct gb_spec_values *out);

/* The point as "n=512 block_size_x=16", for messages. */
void gb_spec_point_label(const struct gb_spec_bench *b, const struct gb_point *p, char *buf, size_t n);

/* Evaluates a kernel name with the scope's values `v` into buf. */
enum gb_status gb_spec_name_eval(const struct gb_spec_name *nm, const double *v, char *buf, size_t n);

/* Fills the name expressions to lower for a compile whose -D options are
 * `opts`: the bench's kernel (and its reference kernel when it shares the
 * module). Returns how many (0 on error, message set). */
int gb_spec_program_exprs(const struct gb_spec_bench *b, const char *const *opts, int n_opts,
                          char exprs[][GB_KERNEL_NAME_LEN], int max);

/* Whether bench row `b` is a spec bench (its ctx a struct gb_spec_bench). */
int gb_spec_bench_is(const struct gb_bench *b);

/* Whether the reference kernel is compiled in the bench's own module (same
 * source, no defines of its own): its name expression is then lowered with
 * the bench's. */
int gb_spec_ref_shared(const struct gb_spec_bench *b);

/* The -D options of the bench (ref = 0) or of its reference (ref = 1). */
int gb_spec_opts(const struct gb_spec_bench *b, const struct gb_spec_values *pv, int ref,
                 char opts[][GB_OPT_LEN], int max);

/* The element types, read from their table (GB_SD_TYPES, kernels/spec_data.h). */
/* The element size of a type. */
size_t gb_spec_type_size(enum gb_spec_type t);
const char *gb_spec_type_name(enum gb_spec_type t);
int gb_spec_type_float(enum gb_spec_type t);
/* The type a spec's "type" names (a row's name or alias); -1 when none. */
int gb_spec_type_parse(const char *name);
/* The names a spec's "type" takes, for messages: "float, double, ..." (the
 * rows' names, then their aliases), cut to fit `n` bytes. */
void gb_spec_type_names(char *buf, size_t n);
/* An output's default tolerances in its type (0 and 0: exact). */
void gb_spec_type_tolerance(enum gb_spec_type t, double *rtol, double *atol);
/* Whether x is a value of type t (finite; whole for integer types; within
 * the type's range), with the range in words in *range (may be NULL). */
int gb_spec_type_holds(enum gb_spec_type t, double x, const char **range);

/* ---- parsing (spec_parse.c) ---- */

/* Parses a kernel name template. GB_ERR_USAGE with the reason. */
enum gb_status gb_spec_name_parse(const char *text, const char *const *names, int n_names,
                                  struct gb_spec_name *out);
void gb_spec_name_release(struct gb_spec_name *nm);

/* ---- buffers, launch and verification (spec_args.c, spec_verify.c) ---- */

/* What a device keeps for spec benches (g->spec_cache): the problems, the
 * comparison's result word pair, and the data kernels (spec_data.cu). */
struct gb_spec_device {
    struct gb_spec_cache cache;
    CUdeviceptr result;          /* the comparison's count and first index */
    CUfunction fill, compare;
};

/* The device's spec state, made on first use: the cache's budget is half
 * the device memory free then (gb_spec_cache_budget). */
enum gb_status gb_spec_device_of(struct gb_gpu *g, struct gb_spec_device **out);

/* The device side of a point. */
struct gb_spec_state {
    struct gb_spec_values pv;
    CUfunction f, ref_f;
    CUdeviceptr buf[GB_SPEC_MAX_ARGS];        /* the point's buffers: its problem's */
    struct gb_spec_device *dev;
    struct gb_spec_problem *prob;             /* its problem, in use while the point lasts */
    int ref_is_self;                          /* "first": this point is its problem's first */
    /* Scalars as the kernel takes them. */
    union {
        float f;
        double d;
        int32_t i;
        uint32_t u;
        int64_t l;
        uint64_t ul;
    } scalar[GB_SPEC_MAX_ARGS];
    void *params[GB_SPEC_MAX_ARGS];
};

/* The key of the point's problem: "n=512 m=64", its problem axes' values. */
void gb_spec_problem_key(const struct gb_spec_bench *b, const struct gb_point *p, char *key, size_t n);

/* The 64-bit hash of the point's problem the inputs are generated from
 * (gb_sd_stream): the bench and its problem axes' values. */
uint64_t gb_spec_problem_hash(const struct gb_spec_bench *b, const struct gb_spec_values *pv);

/* What the point's problem holds on the device (spec_cache.h). */
void gb_spec_need_of(const struct gb_spec_bench *b, const struct gb_spec_values *pv, struct gb_spec_need *need);

/* Opens a data file (init, reference) for reading: a regular file reached
 * without a symbolic link at its last component, never blocking on a FIFO.
 * NULL (errno set) otherwise. */
FILE *gb_spec_open_data(const char *path);

/* Gives the point its problem's buffers (made, and the inputs generated on
 * the device, when the problem is not kept yet) and sets the scalars. */
enum gb_status gb_spec_args_setup(struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s);
/* The point is done with its problem (which stays kept). */
void gb_spec_args_release(struct gb_spec_state *s);

/* Poisons the outputs (NaN / 0xA5 bytes) or, for outputs that are inputs
 * too, restores their initial contents (a device-to-device copy). */
enum gb_status gb_spec_args_poison(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s);

/* Fills an output buffer with the poison of its type (asynchronous). */
enum gb_status gb_spec_poison_buffer(struct gb_gpu *g, enum gb_spec_type t, CUdeviceptr p, size_t bytes);

/* Launches f with the point's arguments (s->params, which point at s->buf
 * and s->scalar) on the point's stream. */
enum gb_status gb_spec_launch_kernel(struct gb_point *p, struct gb_spec_state *s, CUfunction f,
                                     const unsigned grid[3], const unsigned block[3], unsigned smem);

/* The reference of a point's problem, made once per problem (setup): a
 * reference kernel's outputs, the reference files, or (made in verify)
 * the first point's outputs; it stays on the device with the problem. */
enum gb_status gb_spec_reference(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s);

/* Whether element i of output `a` matches: integers without a tolerance
 * bit for bit; else |got - expected| <= atol + rtol * |expected|, where a
 * NaN matches only a NaN (both left the element unwritten or both computed
 * it so). The host twin of the comparison kernel (kernels/spec_data.h). */
int gb_spec_match(const struct gb_spec_arg *a, const void *got, const void *exp, size_t i);

/* Compares the outputs with the reference on the device: GB_ERR_VERIFY
 * with the output, the first mismatching index, expected and got. */
enum gb_status gb_spec_compare(struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s);

#endif
