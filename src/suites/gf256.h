/* gf256.h - arithmetic in GF(2^8) with the Reed-Solomon polynomial
 * x^8 + x^4 + x^3 + x^2 + 1 (0x11d), on the host: the patterns suite's
 * reference encoder and the unit test that follows its kernels' table walk
 * use the same field as kernels/patterns.cu. */
#ifndef GB_GF256_H
#define GB_GF256_H

/* v times alpha (x), reduced. */
static inline unsigned gb_gf_xtime(unsigned v)
{
    v <<= 1;
    return (v & 0x100u ? v ^ 0x11du : v) & 0xffu;
}

/* a times b, by shift and add. */
static inline unsigned gb_gf_mul(unsigned a, unsigned b)
{
    unsigned r = 0;
    for (int i = 0; i < 8; i++) {
        if (b >> i & 1u)
            r ^= a;
        a = gb_gf_xtime(a);
    }
    return r;
}

#endif
