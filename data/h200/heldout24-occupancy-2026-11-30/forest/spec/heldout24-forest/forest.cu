/* forest.cu - inference of a random forest of regression trees, a thread
 * per sample: each sample walks every tree from its root to a leaf and
 * its prediction is the sum of the leaves it reaches,
 *     out[s] = sum over t < NTREE of leaf[t][walk_t(X[s])]
 * NTREE (32) complete binary trees of depth tdepth (6 or 10), each with
 * 2^tdepth - 1 internal nodes numbered from the root 0 (node n's children
 * 2n + 1, taken when X[s][feat[n]] <= thr[n], and 2n + 2 otherwise) and
 * 2^tdepth leaves. The forest is stored tree after tree: feat (the split's
 * feature, an unsigned number below NFEAT) and thr (its threshold, a
 * float) NTREE (2^tdepth - 1) each, leaf NTREE 2^tdepth floats. X holds
 * count samples of NFEAT (16) float features, row-major (a sample's 64
 * bytes together); out count floats.
 *
 * Each level of a walk is a chain of dependent loads: the node's feature
 * number (feat) and threshold (thr), then the sample's feature it names
 * (X, through L1), whose comparison sets the next node. A thread walks
 * tpt trees in lockstep (tpt independent chains in flight, 1 to 8), level
 * by level, then adds their leaves to its sum in tree order; the groups
 * of tpt trees follow one another (the loop over them is not unrolled, so
 * that only tpt chains are ever in flight). The grid covers the samples
 * once, a sample per thread; a thread past the end returns.
 *
 * Compiled with -Dblock_size_x=T -Dtpt=P -Dtdepth=D -Dnsamp=N. */

#define NTREE 32 /* trees in the forest */
#define NFEAT 16 /* features per sample (64 bytes) */

#if tdepth < 1 || tdepth > 16
#error "tdepth is 1 to 16"
#endif
#if tpt != 1 && tpt != 2 && tpt != 4 && tpt != 8
#error "tpt is 1, 2, 4 or 8"
#endif

/* The reference: a sample per thread, the trees one after the other, each
 * walked by its left and right children worked out from the node's level
 * and place in it. */
extern "C" __global__ void forest_reference(float *out, const float *X, const unsigned int *feat, const float *thr,
                                            const float *leaf, int count)
{
    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= count)
        return;
    const long long ninternal = (1ll << tdepth) - 1, nleaf = 1ll << tdepth;
    float sum = 0.0f;
    for (int t = 0; t < NTREE; t++) {
        long long place = 0; /* the node's place in its level */
        for (int level = 0; level < tdepth; level++) {
            const long long node = t * ninternal + ((1ll << level) - 1) + place;
            const float v = X[s * NFEAT + feat[node]];
            place = v <= thr[node] ? 2 * place : 2 * place + 1;
        }
        sum += leaf[t * nleaf + place];
    }
    out[s] = sum;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    forest(float *__restrict__ out, const float *__restrict__ X, const unsigned int *__restrict__ feat,
           const float *__restrict__ thr, const float *__restrict__ leaf, int count)
{
    const long s = (long)blockIdx.x * block_size_x + threadIdx.x;
    if (s >= count)
        return;
    const float *row = X + s * NFEAT;
    const int ninternal = (1 << tdepth) - 1;
    float sum = 0.0f;
#pragma unroll 1
    for (int t0 = 0; t0 < NTREE; t0 += tpt) {
        unsigned int node[tpt];
#pragma unroll
        for (int k = 0; k < tpt; k++)
            node[k] = 0;
        for (int level = 0; level < tdepth; level++) {
#pragma unroll
            for (int k = 0; k < tpt; k++) {
                const int n = (t0 + k) * ninternal + node[k];
                const unsigned int f = __ldg(feat + n);
                const float h = __ldg(thr + n);
                node[k] = 2 * node[k] + (__ldg(row + f) <= h ? 1 : 2);
            }
        }
#pragma unroll
        for (int k = 0; k < tpt; k++)
            sum += __ldg(leaf + (t0 + k) * (ninternal + 1) + (node[k] - ninternal));
    }
    out[s] = sum;
}
