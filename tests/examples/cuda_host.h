/* cuda_host.h - just enough of CUDA to run the example kernels on the host,
 * for the host test of their index arithmetic (tests/cli/examples_host.sh).
 *
 * A launch runs the grid's blocks one after another; each block's threads
 * are real threads, so __syncthreads is a barrier over the block and warp
 * shuffles exchange values through a per-warp barrier. __shared__ becomes
 * `static` (one instance, fine while one block runs at a time). Atomics
 * take one global lock. Include every system header before this one's
 * users define the axis macros (-Dn=64 would rewrite the C++ headers). */
#ifndef GB_CUDA_HOST_H
#define GB_CUDA_HOST_H

#include <pthread.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __shared__ static

struct uint3 {
    unsigned x, y, z;
};
struct dim3 {
    unsigned x, y, z;
};
struct float2 {
    float x, y;
};
static inline float2 make_float2(float x, float y)
{
    return float2{x, y};
}

static thread_local uint3 threadIdx, blockIdx;
static dim3 blockDim, gridDim;

/* The running block's barriers: the whole block, and one per warp. */
static pthread_barrier_t gb_block_barrier;
static std::vector<pthread_barrier_t> gb_warp_barriers;
static std::vector<float> gb_warp_xchg;
static std::mutex gb_atomic_lock;

static inline unsigned gb_linear_tid()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static inline void __syncthreads()
{
    pthread_barrier_wait(&gb_block_barrier);
}

static inline float __shfl_down_sync(unsigned mask, float v, int d)
{
    (void)mask;
    const unsigned t = gb_linear_tid(), warp = t / 32, lane = t % 32;
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    const unsigned width = threads - warp * 32 < 32 ? threads - warp * 32 : 32;
    gb_warp_xchg[t] = v;
    pthread_barrier_wait(&gb_warp_barriers[warp]);
    const float r = lane + (unsigned)d < width ? gb_warp_xchg[t + (unsigned)d] : v;
    pthread_barrier_wait(&gb_warp_barriers[warp]);
    return r;
}

static inline void __threadfence()
{
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

static inline double atomicAdd(double *p, double v)
{
    std::lock_guard<std::mutex> g(gb_atomic_lock);
    double old = *p;
    *p = old + v;
    return old;
}

static inline unsigned atomicInc(unsigned *p, unsigned limit)
{
    std::lock_guard<std::mutex> g(gb_atomic_lock);
    unsigned old = *p;
    *p = old >= limit ? 0 : old + 1;
    return old;
}

static inline unsigned long long atomicExch(unsigned long long *p, unsigned long long v)
{
    std::lock_guard<std::mutex> g(gb_atomic_lock);
    unsigned long long old = *p;
    *p = v;
    return old;
}

static inline double __longlong_as_double(long long b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static inline unsigned __brev(unsigned v)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((v >> i) & 1u) << (31 - i);
    return r;
}

static inline void sincospif(float x, float *s, float *c)
{
    *s = (float)std::sin(M_PI * (double)x);
    *c = (float)std::cos(M_PI * (double)x);
}

/* Runs kernel<<<grid, block>>>(args...) to completion. */
template <typename K, typename... A>
static void gb_launch(K kernel, dim3 grid, dim3 block, A... args)
{
    const unsigned threads = block.x * block.y * block.z;
    const unsigned warps = (threads + 31) / 32;
    gridDim = grid;
    blockDim = block;
    gb_warp_barriers.assign(warps, pthread_barrier_t());
    gb_warp_xchg.assign(warps * 32, 0.0f);
    for (unsigned w = 0; w < warps; w++)
        pthread_barrier_init(&gb_warp_barriers[w], NULL, threads - w * 32 < 32 ? threads - w * 32 : 32);
    pthread_barrier_init(&gb_block_barrier, NULL, threads);
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++) {
                std::vector<std::thread> ts;
                ts.reserve(threads);
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++)
                            ts.emplace_back([=] {
                                threadIdx = uint3{tx, ty, tz};
                                blockIdx = uint3{bx, by, bz};
                                kernel(args...);
                            });
                for (auto &t : ts)
                    t.join();
            }
    pthread_barrier_destroy(&gb_block_barrier);
    for (auto &b : gb_warp_barriers)
        pthread_barrier_destroy(&b);
}

#endif
