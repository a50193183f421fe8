/* boris.cu - one step of the Boris pusher of a particle-in-cell code:
 * charged particles in uniform electric and magnetic fields, each
 * particle's velocity turned about B and accelerated by E, then its
 * position advanced, the particles in a struct of arrays, updated in
 * place:
 *     h  = qm[i] dt / 2
 *     v- = v + h E
 *     t  = h B,  s = 2 t / (1 + t.t)
 *     v' = v- + v- x t
 *     v+ = v- + v' x s
 *     v  = v+ + h E,  x = x + dt v    (x the position (x, y, z))
 * x, y, z, vx, vy, vz hold count floats each and are read and written;
 * qm holds count floats, each particle's charge over its mass, read only.
 * E, B and dt are arguments. Seven streams read and six written: 28 bytes
 * read and 24 written per particle, with about 57 flops.
 *
 * The grid covers the particles once: each thread takes ppt pieces a block
 * apart, a piece one particle (vecw 1: a float of each array) or two
 * adjacent particles (vecw 2: a float2 of each array, 8-byte loads and
 * stores, the arrays 8-byte aligned). Every load of a thread's ppt pieces,
 * seven a piece (qm's through the read-only path, the six arrays written
 * in place by plain loads), is issued before its first store, so that a thread has 7
 * ppt independent loads in flight. A block covers block_size_x ppt vecw
 * particles; the pieces past the end are skipped, and with vecw 2 the last
 * particle of an odd count is done alone by the thread that would have
 * had the piece holding it.
 *
 * Compiled with -Dblock_size_x=T -Dppt=P -Dvecw=V -Dnpart=N. */

#if vecw != 1 && vecw != 2
#error "vecw is 1 or 2"
#endif
#if ppt < 1 || ppt > 8
#error "ppt is 1 to 8"
#endif

/* The reference: one particle per thread, in double, the rotation written
 * out component by component. */
extern "C" __global__ void boris_reference(float *x, float *y, float *z, float *vx, float *vy, float *vz, const float *qm,
                                           float ex, float ey, float ez, float bx, float by, float bz, float dt,
                                           int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const double h = 0.5 * (double)qm[i] * (double)dt;
    const double ax = vx[i] + h * ex, ay = vy[i] + h * ey, az = vz[i] + h * ez;
    const double tx = h * bx, ty = h * by, tz = h * bz;
    const double f = 2.0 / (1.0 + (tx * tx + ty * ty + tz * tz));
    const double sx = f * tx, sy = f * ty, sz = f * tz;
    const double px = ax + (ay * tz - az * ty), py = ay + (az * tx - ax * tz), pz = az + (ax * ty - ay * tx);
    const double qx = ax + (py * sz - pz * sy), qy = ay + (pz * sx - px * sz), qz = az + (px * sy - py * sx);
    const double nx = qx + h * ex, ny = qy + h * ey, nz = qz + h * ez;
    vx[i] = (float)nx;
    vy[i] = (float)ny;
    vz[i] = (float)nz;
    x[i] = (float)(x[i] + dt * nx);
    y[i] = (float)(y[i] + dt * ny);
    z[i] = (float)(z[i] + dt * nz);
}

struct particle {
    float x, y, z, vx, vy, vz, qm;
};

__device__ __forceinline__ void push(particle &p, float3 e, float3 b, float dt)
{
    const float h = 0.5f * p.qm * dt;
    const float3 m = make_float3(fmaf(h, e.x, p.vx), fmaf(h, e.y, p.vy), fmaf(h, e.z, p.vz));
    const float3 t = make_float3(h * b.x, h * b.y, h * b.z);
    const float f = 2.0f / (1.0f + t.x * t.x + t.y * t.y + t.z * t.z);
    const float3 s = make_float3(f * t.x, f * t.y, f * t.z);
    const float3 w = make_float3(m.x + (m.y * t.z - m.z * t.y), m.y + (m.z * t.x - m.x * t.z),
                                 m.z + (m.x * t.y - m.y * t.x));
    const float3 q = make_float3(m.x + (w.y * s.z - w.z * s.y), m.y + (w.z * s.x - w.x * s.z),
                                 m.z + (w.x * s.y - w.y * s.x));
    p.vx = fmaf(h, e.x, q.x);
    p.vy = fmaf(h, e.y, q.y);
    p.vz = fmaf(h, e.z, q.z);
    p.x = fmaf(dt, p.vx, p.x);
    p.y = fmaf(dt, p.vy, p.y);
    p.z = fmaf(dt, p.vz, p.z);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    boris(float *__restrict__ x, float *__restrict__ y, float *__restrict__ z, float *__restrict__ vx,
          float *__restrict__ vy, float *__restrict__ vz, const float *__restrict__ qm, float ex, float ey, float ez,
          float bx, float by, float bz, float dt, int count)
{
    const float3 e = make_float3(ex, ey, ez), b = make_float3(bx, by, bz);
    const long npiece = count / vecw;
    const long first = (long)blockIdx.x * (block_size_x * ppt) + threadIdx.x;
#if vecw == 2
    particle p[ppt][2];
#pragma unroll
    for (int k = 0; k < ppt; k++) {
        const long j = first + k * block_size_x;
        if (j < npiece) {
            const float2 a0 = ((const float2 *)x)[j], a1 = ((const float2 *)y)[j], a2 = ((const float2 *)z)[j],
                         a3 = ((const float2 *)vx)[j], a4 = ((const float2 *)vy)[j], a5 = ((const float2 *)vz)[j],
                         a6 = __ldg((const float2 *)qm + j);
            p[k][0] = particle{a0.x, a1.x, a2.x, a3.x, a4.x, a5.x, a6.x};
            p[k][1] = particle{a0.y, a1.y, a2.y, a3.y, a4.y, a5.y, a6.y};
        }
    }
#pragma unroll
    for (int k = 0; k < ppt; k++) {
        const long j = first + k * block_size_x;
        if (j < npiece) {
            push(p[k][0], e, b, dt);
            push(p[k][1], e, b, dt);
            ((float2 *)x)[j] = make_float2(p[k][0].x, p[k][1].x);
            ((float2 *)y)[j] = make_float2(p[k][0].y, p[k][1].y);
            ((float2 *)z)[j] = make_float2(p[k][0].z, p[k][1].z);
            ((float2 *)vx)[j] = make_float2(p[k][0].vx, p[k][1].vx);
            ((float2 *)vy)[j] = make_float2(p[k][0].vy, p[k][1].vy);
            ((float2 *)vz)[j] = make_float2(p[k][0].vz, p[k][1].vz);
        } else if (j == npiece && 2 * npiece < count) {
            /* the last particle of an odd count */
            const long i = 2 * npiece;
            particle q = {x[i], y[i], z[i], vx[i], vy[i], vz[i], qm[i]};
            push(q, e, b, dt);
            x[i] = q.x;
            y[i] = q.y;
            z[i] = q.z;
            vx[i] = q.vx;
            vy[i] = q.vy;
            vz[i] = q.vz;
        }
    }
#else
    particle p[ppt];
#pragma unroll
    for (int k = 0; k < ppt; k++) {
        const long i = first + k * block_size_x;
        if (i < npiece)
            p[k] = particle{x[i], y[i], z[i], vx[i], vy[i], vz[i], __ldg(qm + i)};
    }
#pragma unroll
    for (int k = 0; k < ppt; k++) {
        const long i = first + k * block_size_x;
        if (i < npiece) {
            push(p[k], e, b, dt);
            x[i] = p[k].x;
            y[i] = p[k].y;
            z[i] = p[k].z;
            vx[i] = p[k].vx;
            vy[i] = p[k].vy;
            vz[i] = p[k].vz;
        }
    }
#endif
}
