/* scan.cu - inclusive prefix sum of n 32-bit unsigned integers in one pass:
 * block scans chained by decoupled look-back.
 *
 * Compiled with -Dblock_size_x=B -Ditems_per_thread=I -Dn=N. A block scans
 * a tile of B I items: it loads them coalesced into shared memory, each
 * thread scans its I consecutive items in registers, the threads' totals are
 * scanned with warp shuffles and then across warps. Tile t's exclusive
 * prefix comes from the tiles before it: the block publishes its tile's
 * total (state "aggregate") in status[t], then thread 0 walks back over
 * status[t-1], status[t-2], .. adding aggregates until it meets a tile whose
 * inclusive prefix is published (state "prefix"), and publishes its own
 * inclusive prefix. Tiles are numbered in the order blocks start (a ticket
 * from an atomic counter), so a block only ever waits for blocks that are
 * already running: no deadlock whatever the scheduling.
 *
 * status[t] is one 64-bit word, (epoch << 33) | (state << 32) | value, so a
 * value and its state are published together. The launch's epoch
 * (sync[1] + 1) tells this launch's words from those left by earlier ones,
 * so status is never cleared. The last block to finish resets the ticket
 * (sync[0]) and its own counter (sync[2]) and moves sync[1] on, so every
 * launch starts from the same state whatever grid the launch before had.
 * Integer sums are exact: the output must equal the reference exactly. */

#define BS block_size_x
#define IPT items_per_thread
#define TILE_ITEMS (BS * IPT)
#define WARPS (BS / 32)
/* One padding word per 32: a thread's I consecutive items are read without
 * bank conflicts. */
#define SKEW(i) ((i) + ((i) >> 5))

/* The reference: one block of 1024 threads. Thread t sums its contiguous
 * chunk, thread 0 turns the 1024 chunk sums into exclusive offsets, then
 * every thread rescans its chunk from its offset. */
extern "C" __global__ void scan_reference(unsigned *out, const unsigned *in, unsigned long long *status,
                                          unsigned long long *sync, int count)
{
    __shared__ unsigned offset[1024];
    const long chunk = (count + 1023) / 1024;
    const long lo = threadIdx.x * chunk;
    const long hi = lo + chunk < count ? lo + chunk : count;
    unsigned s = 0u;
    for (long i = lo; i < hi; i++)
        s += in[i];
    offset[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned run = 0u;
        for (int t = 0; t < 1024; t++) {
            const unsigned v = offset[t];
            offset[t] = run;
            run += v;
        }
    }
    __syncthreads();
    s = offset[threadIdx.x];
    for (long i = lo; i < hi; i++) {
        s += in[i];
        out[i] = s;
    }
}

__device__ __forceinline__ unsigned warp_inclusive(unsigned x, int lane)
{
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d)
            x += y;
    }
    return x;
}

#define STATE_AGGREGATE 0ull
#define STATE_PREFIX 1ull

__device__ __forceinline__ void publish(unsigned long long *word, unsigned epoch, unsigned long long state,
                                        unsigned value)
{
    atomicExch(word, ((unsigned long long)epoch << 33) | (state << 32) | value);
}

extern "C" __global__ void __launch_bounds__(BS)
    scan_lookback(unsigned *out, const unsigned *in, unsigned long long *status, unsigned long long *sync,
                  int count)
{
    __shared__ unsigned buf[SKEW(TILE_ITEMS)];
    __shared__ unsigned warp_tot[WARPS];
    __shared__ unsigned s_tile, s_epoch, s_prefix;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    if (tid == 0) {
        s_tile = (unsigned)atomicAdd(&sync[0], 1ull);
        s_epoch = ((unsigned)*(volatile unsigned long long *)&sync[1] + 1u) & 0x7fffffffu;
    }
    __syncthreads();
    const unsigned tile = s_tile, epoch = s_epoch;
    const long base = (long)tile * TILE_ITEMS;
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        const long i = base + k * BS + tid;
        buf[SKEW(k * BS + tid)] = i < count ? in[i] : 0u;
    }
    __syncthreads();
    unsigned v[IPT], run = 0u;
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        run += buf[SKEW(tid * IPT + k)];
        v[k] = run;
    }
    const unsigned incl = warp_inclusive(run, lane);
    if (lane == 31)
        warp_tot[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        unsigned w = lane < WARPS ? warp_tot[lane] : 0u;
        w = warp_inclusive(w, lane);
        if (lane < WARPS)
            warp_tot[lane] = w;
    }
    __syncthreads();
    const unsigned thread_excl = incl - run + (warp > 0 ? warp_tot[warp - 1] : 0u);
    if (tid == 0) {
        const unsigned total = warp_tot[WARPS - 1];
        unsigned excl = 0u;
        if (tile == 0) {
            publish(&status[0], epoch, STATE_PREFIX, total);
        } else {
            publish(&status[tile], epoch, STATE_AGGREGATE, total);
            long p = (long)tile - 1;
            for (;;) {
                const unsigned long long st = *(volatile unsigned long long *)&status[p];
                if ((unsigned)(st >> 33) != epoch)
                    continue; /* tile p has not published yet in this launch */
                excl += (unsigned)st;
                if ((st >> 32) & 1ull)
                    break;
                p--;
            }
            publish(&status[tile], epoch, STATE_PREFIX, excl + total);
        }
        s_prefix = excl;
    }
    __syncthreads();
    const unsigned prefix = s_prefix + thread_excl;
    /* Only this thread read these words of buf, before the barriers above. */
#pragma unroll
    for (int k = 0; k < IPT; k++)
        buf[SKEW(tid * IPT + k)] = prefix + v[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        const long i = base + k * BS + tid;
        if (i < count)
            out[i] = buf[SKEW(k * BS + tid)];
    }
    if (tid == 0) {
        /* Every block took its ticket and read the epoch before it counts
         * itself here, so the last one may reset them for the next launch. */
        __threadfence();
        if (atomicAdd(&sync[2], 1ull) == (unsigned long long)gridDim.x - 1) {
            sync[2] = 0ull;
            sync[0] = 0ull;
            sync[1] = sync[1] + 1ull;
        }
    }
}
