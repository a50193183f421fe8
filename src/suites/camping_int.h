/* camping_int.h - what the files of suite `camping` share on the device side
 * (camping.c: micro-benchmarks, discovery, pinning; camping_apps.c: the
 * validation applications). Not part of any public interface. */
#ifndef GB_SUITES_CAMPING_INT_H
#define GB_SUITES_CAMPING_INT_H

#include "gpubound/gpu.h"
#include "gpubound/suite.h"
#include "suites/camping.h"

#define CAMP_ITERS 256           /* requests per warp in read and write */
#define CAMP_SET_LINES 64        /* lines of the camped and the spread sets */
#define CAMP_MAX_LINES 256       /* entries of the kernels' camp_lines table */
#define CAMP_LINE_BYTES 128
#define CAMP_WINDOW (32u << 20)  /* bytes the line sets of read/write are drawn from */

enum { CAMP_CLS_ROWS = 0, CAMP_CLS_COLUMNS = 1, CAMP_CLS_LINES = 2 };

/* The kernels' struct camp_geom, field for field (kernels/camping.cu). */
struct camp_geom {
    uint64_t q0, nq, total, pitch;
    uint32_t rows_log2, lines, cls, pad;
};

/* State of a read, write or discover point. */
struct camp_state {
    int width, warps, store;
    CUdeviceptr own;             /* allocation of the point (0: the shared window) */
    CUdeviceptr base;            /* where the pattern's offsets start */
    size_t buf_bytes;            /* bytes from base the pattern may touch */
    CUdeviceptr sums, smid, scratch;
    size_t n_sums;
    CUfunction f;
    struct gb_camp_pin pin;
    unsigned grid, block;
    struct camp_geom geo;        /* the next launch */
    struct camp_geom geo_last;   /* the last launch, which verify checks */
    int rotate;                  /* each launch starts where the last ended */
    unsigned seed;
    int smid_on;                 /* record the SM of each block (verification launch) */
    int n_lines;
    uint32_t lines[CAMP_MAX_LINES];
};

/* What the slice probe found (camp_find). */
struct camp_found {
    uint32_t camped[CAMP_MAX_LINES];  /* the anchor and lines that share its slice */
    uint32_t spread[CAMP_MAX_LINES];  /* the anchor and lines of pairwise different slices */
    int lines;                        /* lines in each set */
    int tested;                       /* candidate lines paired with the anchor */
    int same;                         /* lines of the camped set (besides the anchor) confirmed in its slice */
    int spread_distinct;              /* lines of the spread set in pairwise different slices (by the pair test) */
    int usable;                       /* the pair times were bimodal (gb_camp_probe_threshold) */
    double t_pair_ns;                 /* median pair time (anchor, candidate) */
    double t_slow_ns;                 /* slowest pair time (anchor, candidate): a same-slice pair */
    double t_same_ns;                 /* pair time (anchor, anchor) */
    double t_set_camped_ns;           /* probe kernel over the camped set */
    double t_set_spread_ns;           /* probe kernel over the spread set */
};

/* Pins `warps` active warps per SM for f (camping.h's gb_camp_pin), sets
 * f's maximum dynamic shared memory and a 100% shared carveout, and checks
 * the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor agrees
 * (GB_ERR_VERIFY with both answers when it does not). */
enum gb_status camp_pin_func(struct gb_gpu *g, CUfunction f, int warps, struct gb_camp_pin *pin);
/* camp_pin_func, then records the metric active_warps. */
enum gb_status camp_pin_point(struct gb_point *p, CUfunction f, int warps, struct gb_camp_pin *pin);
/* Checks that the `grid` blocks whose SM ids are in `smid` ran per_sm to
 * an SM on every SM of the GPU. */
enum gb_status camp_check_sms(struct gb_gpu *g, CUdeviceptr smid, unsigned grid, int per_sm);
/* The slice probe: pairs the anchor line with the lines that follow it in
 * the window at `base` (line numbers relative to base) and classifies them
 * by time (gb_camp_probe_threshold); the camped set is `want` lines (a power
 * of two, 4..CAMP_MAX_LINES) of the anchor's slice, the spread set `want`
 * lines chosen greedily so that every pair of them tests fast (different
 * slices); both sets are then timed with the probe kernel. */
enum gb_status camp_find(struct gb_gpu *g, CUmodule m, CUdeviceptr base, size_t window, uint64_t anchor, int want,
                         struct camp_found *out);

int camp_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max);
void camp_teardown(struct gb_point *p, void *ctx);

/* The validation applications (camping_apps.c). */
extern const struct gb_axis_def camp_axes_app[1];
enum gb_status camp_gem_setup(struct gb_point *p, void *ctx);
enum gb_status camp_gem_poison(struct gb_point *p, void *ctx);
enum gb_status camp_gem_launch(struct gb_point *p, void *ctx);
enum gb_status camp_gem_verify(struct gb_point *p, void *ctx);
enum gb_status camp_clique_setup(struct gb_point *p, void *ctx);
enum gb_status camp_clique_poison(struct gb_point *p, void *ctx);
enum gb_status camp_clique_launch(struct gb_point *p, void *ctx);
enum gb_status camp_clique_verify(struct gb_point *p, void *ctx);
enum gb_status camp_transpose_setup(struct gb_point *p, void *ctx);
enum gb_status camp_transpose_poison(struct gb_point *p, void *ctx);
enum gb_status camp_transpose_launch(struct gb_point *p, void *ctx);
enum gb_status camp_transpose_verify(struct gb_point *p, void *ctx);
void camp_app_teardown(struct gb_point *p, void *ctx);

#endif
