/* embbag.cu - the sum of an embedding bag: out[b][:] = the sum over j of
 * table[ids[b * bag + j] % nvocab][:], a table of nvocab rows of dim floats
 * and bags of bag ids hashed onto its rows (the embedding layer of a
 * recommender model with the hashing trick). Rows are gathered at random
 * from the table: each is 1 KiB read whole by a block's x threads,
 * block_size_y bags to a block.
 *
 * Compiled with -Dblock_size_x=X -Dblock_size_y=Y -Dvec=V -Dvocab=N. */

/* The reference: a thread per output float, the bag summed in order. */
extern "C" __global__ void embbag_reference(float *out, const float *table, const int *ids, int bags,
                                            int dim, int bag, int nvocab)
{
    const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (long)bags * dim)
        return;
    const long b = t / dim;
    const int d = (int)(t % dim);
    float s = 0.0f;
    for (int j = 0; j < bag; j++)
        s += table[(long)(ids[b * bag + j] % nvocab) * dim + d];
    out[t] = s;
}

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    embbag_sum(float *out, const float *__restrict__ table, const int *__restrict__ ids, int bags,
               int dim, int bag, int nvocab)
{
    const long b = (long)blockIdx.x * block_size_y + threadIdx.y;
    if (b >= bags)
        return;
    const int *ib = ids + b * bag;
    for (int d = threadIdx.x * vec; d < dim; d += block_size_x * vec) {
#if vec == 4
        float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        for (int j = 0; j < bag; j++) {
            const float4 v = *reinterpret_cast<const float4 *>(table + (long)(ib[j] % nvocab) * dim + d);
            s.x += v.x;
            s.y += v.y;
            s.z += v.z;
            s.w += v.w;
        }
        *reinterpret_cast<float4 *>(out + b * dim + d) = s;
#else
        float s = 0.0f;
        for (int j = 0; j < bag; j++)
            s += table[(long)(ib[j] % nvocab) * dim + d];
        out[b * dim + d] = s;
#endif
    }
}
