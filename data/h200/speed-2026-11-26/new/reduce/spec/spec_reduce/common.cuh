// common.cuh - a header the reduce spec's kernel includes (an NVRTC header).
#pragma once

__device__ __forceinline__ int warp_sum(int v)
{
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}
