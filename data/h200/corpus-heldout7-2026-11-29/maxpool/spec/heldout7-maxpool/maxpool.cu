/* maxpool.cu - 3 x 3 max pooling with stride 2 and a padding of 1 over a
 * batch of planes (the channels of a feature map, each a row-major
 * width x height float image): the downsampling layer of a convolutional
 * network. Output pixel (ox, oy) of a plane is the largest of the input
 * pixels in rows 2 oy - 1 to 2 oy + 1 and columns 2 ox - 1 to 2 ox + 1 that
 * lie inside the plane (padding counts as -infinity); an output plane is
 * (width / 2) x (height / 2). Width and height are even, so the padding is
 * only at the top row and the left column, every window holds at least four
 * input pixels, and a row's pairs of columns (2 ox, 2 ox + 1) are float2s.
 *
 * A block of block_size_x x block_size_y threads writes block_size_x output
 * columns and block_size_y * opr output rows of one plane (blockIdx.z);
 * thread (tx, ty) writes column ox at the opr consecutive rows from
 * oy0 = (blockIdx.y * block_size_y + ty) * opr. It reads the 2 opr + 1 input
 * rows they cover once each, keeps each row's maximum over the window's three
 * columns in a register, and takes each output as the maximum of three such
 * row maxima: consecutive output rows share an input row, so a thread reads
 * (2 opr + 1) / opr input rows per output row (3, 2.5, 2.25). A warp is 32
 * consecutive output columns of one thread row (block_size_x is a multiple
 * of 32). The three columns of a window are read as three floats (vec2 0:
 * a warp's load touches every other float of 64, three loads on the same
 * sectors) or as the float2 (2 ox, 2 ox + 1) with column 2 ox - 1 taken from
 * the lane below by a shuffle, lane 0 loading it itself (vec2 1: one
 * coalesced 8-byte load per lane and row).
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Dopr=R -Dvec2=V -Dside=S. */

#define NEG_INF __int_as_float(0xff800000)

/* The reference: one output pixel per thread, its nine window positions in
 * row-major order, each inside the plane compared with the maximum so far. */
extern "C" __global__ void maxpool_reference(float *out, const float *in, int width, int height, int owidth,
                                             int oheight)
{
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    const int oy = blockIdx.y * blockDim.y + threadIdx.y;
    const long p = blockIdx.z;
    if (ox >= owidth || oy >= oheight)
        return;
    const float *src = in + p * width * height;
    float m = NEG_INF;
    for (int r = 2 * oy - 1; r <= 2 * oy + 1; r++)
        for (int c = 2 * ox - 1; c <= 2 * ox + 1; c++)
            if (r >= 0 && r < height && c >= 0 && c < width)
                m = fmaxf(m, src[(long)r * width + c]);
    out[(p * oheight + oy) * owidth + ox] = m;
}

#define ROWS_IN (2 * opr + 1) /* input rows a thread reads */

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    maxpool(float *out, const float *__restrict__ in, int width, int height, int owidth, int oheight)
{
    const int ox = blockIdx.x * block_size_x + threadIdx.x;
    const int oy0 = (blockIdx.y * block_size_y + threadIdx.y) * opr;
    const long p = blockIdx.z;
    const bool colok = ox < owidth;
    /* Input row 2 oy0 - 1, the first the thread reads (above the plane,
     * and not read, when oy0 is 0), then a row further at each step. */
    const float *row = in + (p * height + 2 * oy0 - 1) * width;
    float h[ROWS_IN]; /* each input row's maximum over the window's columns */
#pragma unroll
    for (int k = 0; k < ROWS_IN; k++, row += width) {
        const int r = 2 * oy0 - 1 + k;
        const bool rowok = colok && r >= 0 && r < height;
#if vec2
        /* Every lane takes part in the shuffle, inside the plane or not. */
        const float2 v = rowok ? reinterpret_cast<const float2 *>(row)[ox] : make_float2(NEG_INF, NEG_INF);
        float left = __shfl_up_sync(0xffffffffu, v.y, 1);
        if (threadIdx.x % 32 == 0)
            left = rowok && ox > 0 ? row[2 * ox - 1] : NEG_INF;
        h[k] = fmaxf(fmaxf(left, v.x), v.y);
#else
        const float a = rowok && ox > 0 ? row[2 * ox - 1] : NEG_INF;
        const float b = rowok ? row[2 * ox] : NEG_INF;
        const float c = rowok ? row[2 * ox + 1] : NEG_INF;
        h[k] = fmaxf(fmaxf(a, b), c);
#endif
    }
    float *o = out + (p * oheight + oy0) * owidth + ox;
#pragma unroll
    for (int j = 0; j < opr; j++, o += owidth)
        if (colok && oy0 + j < oheight)
            *o = fmaxf(fmaxf(h[2 * j], h[2 * j + 1]), h[2 * j + 2]);
}
