/* throughput.h - the data of suite `throughput` that its tests and docs
 * share: every measured operation with the PTX and SASS instructions it must
 * compile to, and the documented rates of the CUDA C++ Programming Guide.
 *
 * One source: the suite measures from this table, the nvrtc test checks the
 * PTX against it, tests/device/throughput_sass.sh checks the SASS against
 * it (through the dump of that test), and a unit test checks that
 * docs/suites.md names the same instructions.
 */
#ifndef GB_SUITES_THROUGHPUT_H
#define GB_SUITES_THROUGHPUT_H

#include "gpubound/guide.h"
#include "gpubound/suite.h"

enum gb_tp_type { GB_TP_F32 = 0, GB_TP_F64, GB_TP_S32, GB_TP_U32 };

/* How a chain's result is checked: bit for bit against the same chain
 * computed on the host, or within a bound computed from the operation's
 * documented error (eps, absolute, per step) and a contraction factor lip
 * (|f'| <= lip < 1 over the chain's range): |got - exact| <= 2 eps / (1 - lip). */
enum gb_tp_check { GB_TP_EXACT = 0, GB_TP_BOUND };

struct gb_tp_op {
    const char *name;        /* value of the `op` axis */
    int id;                  /* -DOP=id in kernels/throughput.cu */
    enum gb_tp_type type;
    const char *step;        /* one step of a chain, as written in the kernel */
    /* Instructions, comma lists. The first of `ptx` / `sass` must occur at
     * least once per step of the unrolled loop body (chains x unroll); the
     * others at least once. The `_not` lists must not occur at all. */
    const char *ptx, *ptx_not;
    const char *sass, *sass_not;
    const char *doc_row;     /* key of gb_tp_doc_rows, or NULL: not in the guide's table */
    int chains;              /* independent chains per thread (throughput variant) */
    int unroll;              /* steps of each chain per loop iteration */
    enum gb_tp_check check;
    double eps, lip;         /* GB_TP_BOUND only */
};

extern const struct gb_tp_op gb_tp_ops[];
extern const int gb_tp_n_ops;

/* The memory benchmarks' instructions, checked the same way. */
struct gb_tp_mem {
    const char *bench;       /* "smem", "smem_broadcast", "const" */
    int kernel;              /* -DTP_KERNEL */
    int unroll;              /* loads per loop iteration */
    const char *ptx, *sass;
};
extern const struct gb_tp_mem gb_tp_mems[];
extern const int gb_tp_n_mems;


/* The documented rate of `op` on compute capability major.minor, or 0 when
 * the guide gives none (the operation is not in its table, or the compute
 * capability is not in gb_tp_doc_cc). */
int gb_tp_doc_rate(const struct gb_tp_op *op, int cc_major, int cc_minor);

/* The op of that name, or NULL. */
const struct gb_tp_op *gb_tp_op_find(const char *name);

/* NVRTC options of one arithmetic kernel: lat = 1 for the dependent-chain
 * variant (one chain per thread). Returns the number of options written. */
int gb_tp_arith_opts(const struct gb_tp_op *op, int lat, char opts[][GB_OPT_LEN], int max);

#endif
