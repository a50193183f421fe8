/* ubench.h - the parts of suite `ubench` that need no GPU: the block
 * shapes swept, the data sizes computed from a device's limits, and the
 * overload loop the kernels run (for host references). Exposed for tests. */
#ifndef GB_SUITES_UBENCH_H
#define GB_SUITES_UBENCH_H

#include <stddef.h>
#include <stdint.h>

#include "gpubound/device.h"

/* The block dimensions of the paper (section 4.1.2): multiples of two
 * and/or three up to 1024. */
#define GB_UBENCH_N_DIMS 20
extern const int gb_ubench_dims[GB_UBENCH_N_DIMS];

/* The largest block, rows x cols threads (every CUDA GPU since Fermi). */
#define GB_UBENCH_MAX_BLOCK 1024

/* Iterations of the overload loop (uBench-3, 4, 7, 10, 11). */
#define GB_UBENCH_OVERLOAD_ITERS 1000u

/* 1 when a block of rows x cols threads is swept: both dimensions among
 * gb_ubench_dims and rows * cols <= GB_UBENCH_MAX_BLOCK. */
int gb_ubench_shape_ok(long rows, long cols);

/* Writes every swept shape (rows, cols), rows-major in gb_ubench_dims
 * order, into the arrays (up to `max` of them) and returns how many there
 * are (184). */
int gb_ubench_shapes(int *rows, int *cols, int max);

/* How much work a thread of a kernel does, which decides how far above the
 * device's resident threads its largest size goes. */
enum gb_ubench_load {
    GB_UBENCH_WRITE = 0,   /* no loop: at most one store (uBench-0, 1, 2, 5, 6) */
    GB_UBENCH_OVERLOAD,    /* the 1000-iteration overload loop (uBench-3, 4, 7) */
    GB_UBENCH_READ,        /* reads a row, column, chunk or window (uBench-8..14, Cannon) */
};

/* The device's maximum resident threads, MT = SMs x threads per SM. */
long gb_ubench_max_resident(const struct gb_device_info *d);

/* The matrix side n (n x n elements, one thread each) of size class
 * `size` ("small", "medium", "large") for a kernel of `load` on device
 * `d`. Sides are 3 * 2^k (k >= 5), so n * n is a multiple of every block
 * size and n a multiple of every block dimension up to 3 * 2^k:
 *   small   the largest side with n^2 < MT (at least 96);
 *   medium  the smallest side with n^2 > MT;
 *   large   the smallest side with n^2 >= f x MT, f = 128 (write),
 *           32 (overload), 8 (read).
 * 0 for an unknown class or a device without SM limits. */
long gb_ubench_side(const struct gb_device_info *d, const char *size, enum gb_ubench_load load);

/* The overload loop: GB_UBENCH_OVERLOAD_ITERS times x = x * x + k (mod 2^32). */
uint32_t gb_ubench_overload(uint32_t x, uint32_t k);

#endif
