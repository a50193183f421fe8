// A small kernel whose per-thread counts are counted by hand in
// tests/unit/test_analyze_hand.c: loop forms (inclusive bound, a strided
// step that does not divide the range, a block-strided loop over a range
// the block does not divide, a count-down, halving and doubling), a global
// read-modify-write of doubles, a comparison in a branch condition, a
// one-thread branch with an else, a one-thread branch of a 2-D block, a
// branch on its first row with a one-thread branch inside.
extern "C" __global__ void hand(double *acc, const float *in, float *out, unsigned *hits, int n)
{
    float v = 0.0f;
    for (int i = 0; i <= N; i++)                           // N + 1 trips
        v += in[i];
    for (int j = 3; j < M; j += 4)                         // ceil((M - 3) / 4) trips
        out[j] = v;
    for (int k = threadIdx.x; k < n; k += blockDim.x)      // ceil(n / blockDim.x) trips
        acc[k] += 2.0 * in[k];
    for (int d = N; d > 0; d--)                            // N trips
        v = v * 0.5f;
    for (int h = M; h > 1; h >>= 1)                        // ilog2(M / 2) + 1 trips
        v = v - 1.0f;
    for (int w = 1; w < M; w <<= 1)                        // clog2(M) trips
        __syncthreads();
    if (in[0] <= 0.0f)
        v = 0.0f;
    if (threadIdx.x == 0)
        atomicAdd(hits, 1u);
    else
        atomicAdd(hits + 1, 2u);
    if ((threadIdx.y == 0) && threadIdx.x == 0)            // one thread of a 2-D block
        atomicAdd(hits + 2, 3u);
    if (threadIdx.y == 0 && n > 1) {                       // the block's first row
        atomicAdd(hits + 3, 4u);
        if (!threadIdx.x)                                  // nested: one thread of the block
            atomicAdd(hits + 4, 5u);
    }
    out[0] = v;
}
