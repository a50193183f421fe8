/* ceilings_ref.h - the host side of the ceilings suite's checks that need
 * no GPU: the warpgroup MMA's operand image and product, the place of each
 * accumulator, and the L2 read's expected sum (src/suites/ceilings.c). */
#ifndef GB_SUITES_CEILINGS_REF_H
#define GB_SUITES_CEILINGS_REF_H

#include <stddef.h>
#include <stdint.h>

#define GB_CK_WG_M 64
#define GB_CK_WG_N 256
#define GB_CK_WG_K 16
/* Bytes of the image: A (64 x 16) then B (16 x 256), 2 bytes an element. */
#define GB_CK_WG_A_BYTES (GB_CK_WG_M * GB_CK_WG_K * 2)
#define GB_CK_WG_IMAGE_BYTES (GB_CK_WG_A_BYTES + GB_CK_WG_N * GB_CK_WG_K * 2)

/* The 16-bit pattern of the small integer v in bf16 (bf16 = 1) or fp16;
 * exact for |v| < 256. */
unsigned gb_ck_half_bits(int bf16, int v);

/* Byte offset of element (row, k) of a K-major operand in the swizzle-free
 * (interleave) layout: core matrices of 8 rows x 16 bytes; the two K
 * halves of an 8-row group 128 bytes apart (leading byte offset), 8-row
 * groups 256 bytes apart (stride byte offset). row is m for A, n for B. */
size_t gb_ck_wg_offset(int row, int k);

/* Operands of small integers in [-2, 2] drawn from `seed`: a is 64 x 16
 * (row-major), b is 16 x 256 (row-major: b[k * 256 + n]). */
void gb_ck_wg_operands(unsigned seed, int *a, int *b);

/* The image the kernel copies to shared memory: A then B, each element at
 * gb_ck_wg_offset (B's rows are n), as bf16 (bf16 = 1) or fp16 bits.
 * `img` holds GB_CK_WG_IMAGE_BYTES / 2 entries. */
void gb_ck_wg_image(int bf16, const int *a, const int *b, uint16_t *img);

/* c = a b (64 x 256, row-major); returns the largest |c[i]|. */
long gb_ck_wg_product(const int *a, const int *b, long *c);

/* Where accumulator r (0..127) of thread t (0..127) of a warpgroup lands
 * in the 64 x 256 result, as row x 256 + column (the kernel's store). */
size_t gb_ck_wg_acc_index(int t, int r);

/* The sum of every thread's sum of the L2 read: block b of `grid` starts
 * at chunk b x n_chunks / grid and reads `reads` chunks in turn, wrapping;
 * chunk_sum[c] is the 64-bit sum of chunk c's words (wrapping arithmetic,
 * as the kernel's). */
uint64_t gb_ck_l2_read_expect(const uint64_t *chunk_sum, unsigned n_chunks, unsigned grid, long reads);

#endif
