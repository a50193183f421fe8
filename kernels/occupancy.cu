// occupancy.cu - a probe kernel whose resources are chosen at compile time,
// for recording the driver's occupancy answers (gpubound occupancy
// --record-truth). It is never launched: only its attributes and the
// driver's occupancy calculation for it are read.
//
//   -DSMEM_BYTES=N   static shared memory per block, bytes (0..49152)
//   -DNACC=K         independent accumulators kept live across a loop whose
//                    trip count is only known at run time: register pressure
//                    grows with K. Cap the registers with --maxrregcount=R
//                    (the rest spill to local memory).

#ifndef SMEM_BYTES
#define SMEM_BYTES 0
#endif
#ifndef NACC
#define NACC 16
#endif

extern "C" __global__ void gb_occupancy_probe(float *out, const float *in, int iters)
{
    float acc[NACC];
#pragma unroll
    for (int k = 0; k < NACC; k++)
        acc[k] = in[(threadIdx.x + k) & 1023];
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int k = 0; k < NACC; k++)
            acc[k] = fmaf(acc[k], acc[(k + 1) % NACC], 0.5f);
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < NACC; k++)
        s += acc[k];
#if SMEM_BYTES > 0
    // Indexed by the thread, so the compiler must keep the whole array.
    __shared__ unsigned char tile[SMEM_BYTES];
    tile[threadIdx.x % SMEM_BYTES] = (unsigned char)s;
    __syncthreads();
    s += tile[(threadIdx.x + 1) % SMEM_BYTES];
#endif
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
