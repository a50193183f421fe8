/* geodist.cu - the distance between two points on a sphere of radius
 * radius (the Earth's mean radius, 6371 km) for each of count pairs of
 * points given by their latitude and longitude in radians, in four arrays
 * (a struct of arrays: lat1, lon1, lat2, lon2), with dlat = lat2 - lat1
 * and dlon = lon2 - lon1:
 *   formula 0, the haversine formula (the great-circle distance):
 *       h = sin^2(dlat / 2) + cos lat1 cos lat2 sin^2(dlon / 2),
 *       dist = 2 radius asin(min(1, sqrt h))
 *   formula 1, the equirectangular approximation (for short distances):
 *       x = dlon cos((lat1 + lat2) / 2), y = dlat,
 *       dist = radius sqrt(x^2 + y^2)
 * 16 bytes read and 4 written per pair.
 *
 * A thread takes vw consecutive pairs: one load of vw floats (a float, a
 * float2 or a float4) from each of the four arrays (4 independent loads of
 * 4, 8 or 16 bytes in flight), the vw distances, and one store of vw
 * floats. The grid covers the pairs once, ceil(count / (vw block_size_x))
 * blocks; a thread whose vw pairs pass the end takes the ones left one by
 * one (none does in the spec's problems).
 *
 * Compiled with -Dblock_size_x=T -Dvw=V -Dformula=F -Dnpair=N. */

#if formula != 0 && formula != 1
#error "formula is 0 (haversine) or 1 (equirectangular)"
#endif
#if vw == 1
typedef float vec_t;
#elif vw == 2
typedef float2 vec_t;
#elif vw == 4
typedef float4 vec_t;
#else
#error "vw is 1, 2 or 4"
#endif

/* The reference: one pair per thread, in double, the distance rounded to
 * float once. */
extern "C" __global__ void geodist_reference(float *dist, const float *lat1, const float *lon1, const float *lat2,
                                             const float *lon2, float radius, int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const double phi1 = lat1[i], phi2 = lat2[i];
    const double dphi = phi2 - phi1, dlambda = (double)lon2[i] - (double)lon1[i];
    double central;
    if (formula == 0) {
        const double a = sin(0.5 * dphi), b = sin(0.5 * dlambda);
        const double hav = a * a + cos(phi1) * cos(phi2) * b * b;
        central = 2.0 * asin(sqrt(hav));
    } else {
        const double east = dlambda * cos(0.5 * (phi1 + phi2));
        central = sqrt(east * east + dphi * dphi);
    }
    dist[i] = (float)((double)radius * central);
}

__device__ __forceinline__ float distance(float la1, float lo1, float la2, float lo2, float radius)
{
    const float dlat = la2 - la1, dlon = lo2 - lo1;
#if formula == 0
    const float s = sinf(0.5f * dlat), t = sinf(0.5f * dlon);
    const float h = s * s + cosf(la1) * cosf(la2) * (t * t);
    return 2.0f * radius * asinf(fminf(1.0f, sqrtf(h)));
#else
    const float x = dlon * cosf(0.5f * (la1 + la2));
    return radius * sqrtf(x * x + dlat * dlat);
#endif
}

union pack {
    vec_t v;
    float f[vw];
};

extern "C" __global__ void __launch_bounds__(block_size_x)
    geodist(float *__restrict__ dist, const float *__restrict__ lat1, const float *__restrict__ lon1,
            const float *__restrict__ lat2, const float *__restrict__ lon2, float radius, int count)
{
    const long t = (long)blockIdx.x * block_size_x + threadIdx.x;
    const long i0 = t * vw;
    if (i0 + vw <= count) {
        pack a, b, c, d, r;
        a.v = __ldg((const vec_t *)lat1 + t);
        b.v = __ldg((const vec_t *)lon1 + t);
        c.v = __ldg((const vec_t *)lat2 + t);
        d.v = __ldg((const vec_t *)lon2 + t);
#pragma unroll
        for (int k = 0; k < vw; k++)
            r.f[k] = distance(a.f[k], b.f[k], c.f[k], d.f[k], radius);
        ((vec_t *)dist)[t] = r.v;
    } else {
        for (long i = i0; i < count; i++)
            dist[i] = distance(__ldg(lat1 + i), __ldg(lon1 + i), __ldg(lat2 + i), __ldg(lon2 + i), radius);
    }
}
