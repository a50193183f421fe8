// flush_code.cu - the last step of the cold mode's "empty" flush (gpu.h),
// a module of its own, compiled the first time a cold sample needs it: its
// 16384 instructions take NVRTC seconds, which runs without a cold sample
// should not pay.

// Runs 16384 distinct instructions (256 KiB of code) once in every warp,
// a chain the compiler cannot fold: launched on every SM, it leaves the
// SMs' instruction and constant caches holding this code, not the timed
// kernel's. The result goes to out[0] only when it is impossible.
#define GB_X4(s) s s s s
#define GB_X16(s) GB_X4(GB_X4(s))
extern "C" __global__ void gb_flush_code(unsigned int a, unsigned int b, unsigned int *out)
{
    unsigned int x = threadIdx.x;
    asm volatile(GB_X16(GB_X16(GB_X16(GB_X4("mad.lo.u32 %0, %0, %1, %2;\n")))) : "+r"(x) : "r"(a), "r"(b));
    if (x == 0x9e3779b9u && out)
        out[0] = x;
}
