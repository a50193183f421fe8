/* segsumsq.cu - the sum of squares of each segment of a float array, the
 * segments of random lengths given by a table of start offsets and lengths
 * (ragged rows kept in fixed slots: padded sequences of a batch with their
 * lengths, the begin/length form of a CSR row table). Segment s is
 * vals[start[s]], ..., vals[start[s] + len[s] - 2]: its table entry holds
 * its length plus one, so that lengths 0 to 64 come from a table of
 * non-zero integers; an empty segment's sum is 0.
 *
 * A group of tpseg threads takes a segment: a thread (tpseg 1), a quad
 * (tpseg 4) or a warp (tpseg 32). Each thread adds the squares of every
 * (tpseg * vec)-th chunk of vec floats of the segment; vec 4 loads a whole
 * chunk as a float4 (the starts are multiples of 4 floats) and the last,
 * partial chunk float by float. The group's partial sums are combined by
 * warp shuffles.
 *
 * Compiled with -Dblock_size_x=B -Dtpseg=T -Dvec=V -Dsegs=S. */

/* The reference: a thread per segment, its squares added in order in double. */
extern "C" __global__ void segsumsq_reference(float *out, const float *vals, const int *start, const int *len, int nseg)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg)
        return;
    const float *v = vals + start[s];
    const int m = len[s] - 1;
    double acc = 0.0;
    for (int k = 0; k < m; k++)
        acc += (double)v[k] * (double)v[k];
    out[s] = (float)acc;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    segsumsq(float *out, const float *__restrict__ vals, const int *__restrict__ start,
             const int *__restrict__ len, int nseg)
{
    const long t = (long)blockIdx.x * block_size_x + threadIdx.x;
    const long s = t / tpseg;
    const int lane = (int)(t % tpseg);
    float acc = 0.0f;
    if (s < nseg) {
        const float *v = vals + start[s];
        const int m = len[s] - 1;
        for (int c = lane * vec; c < m; c += tpseg * vec) {
#if vec == 4
            if (c + 4 <= m) {
                const float4 q = *reinterpret_cast<const float4 *>(v + c);
                acc = fmaf(q.x, q.x, acc);
                acc = fmaf(q.y, q.y, acc);
                acc = fmaf(q.z, q.z, acc);
                acc = fmaf(q.w, q.w, acc);
            } else {
                for (int k = c; k < m; k++)
                    acc = fmaf(v[k], v[k], acc);
            }
#else
            acc = fmaf(v[c], v[c], acc);
#endif
        }
    }
    /* Every lane of the warp takes part, those past the last segment too. */
#if tpseg > 1
#pragma unroll
    for (int o = tpseg / 2; o > 0; o /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
#endif
    if (s < nseg && lane == 0)
        out[s] = acc;
}
