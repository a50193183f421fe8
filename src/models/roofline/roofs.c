/* roofs.c - the roofs: what each is, which benches measure it, its guide
 * figure per compute capability, and a ceilings run read into them
 * (include/gpubound/roofline.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_fit.h>

#include "gpubound/roofline.h"
#include "gpubound/guide.h"

static const struct gb_roof_info gb_roofs[GB_N_ROOFS] = {
    [GB_ROOF_DRAM] = {"dram", "device memory (DRAM/HBM) bandwidth", "GB/s", GB_ROOF_MEMORY,
                      "bandwidth/read,bandwidth/write,bandwidth/copy,bandwidth/dtod"},
    [GB_ROOF_L2] = {"l2", "L2 bandwidth, working set in the L2", "GB/s", GB_ROOF_MEMORY,
                    "ceilings/l2_read"},
    [GB_ROOF_L2_WRITE] = {"l2_write", "L2 bandwidth of stores, working set in the L2", "GB/s",
                          GB_ROOF_MEMORY, "ceilings/l2_write"},
    [GB_ROOF_SMEM] = {"smem", "L1 / shared-memory bandwidth, conflict-free", "GB/s", GB_ROOF_MEMORY,
                      "ceilings/smem,throughput/smem ways=1"},
    [GB_ROOF_FP32] = {"fp32", "FP32 FMA", "GFLOP/s", GB_ROOF_COMPUTE, "throughput/arith op=ffma,mode=tput"},
    [GB_ROOF_FP64] = {"fp64", "FP64 FMA", "GFLOP/s", GB_ROOF_COMPUTE, "throughput/arith op=dfma,mode=tput"},
    [GB_ROOF_FP16] = {"fp16", "FP16x2 FMA (HFMA2)", "GFLOP/s", GB_ROOF_COMPUTE, "ceilings/hfma2 type=f16x2"},
    [GB_ROOF_BF16] = {"bf16", "BF16x2 FMA (HFMA2.BF16)", "GFLOP/s", GB_ROOF_COMPUTE, "ceilings/hfma2 type=bf16x2"},
    [GB_ROOF_TC_FP16] = {"tc_fp16", "tensor cores fp16, fp32 accumulate (mma.sync, wgmma)", "GFLOP/s",
                         GB_ROOF_COMPUTE, "ceilings/mma type=fp16,ceilings/wgmma type=fp16"},
    [GB_ROOF_TC_BF16] = {"tc_bf16", "tensor cores bf16, fp32 accumulate (mma.sync, wgmma)", "GFLOP/s",
                         GB_ROOF_COMPUTE, "ceilings/mma type=bf16,ceilings/wgmma type=bf16"},
    [GB_ROOF_TC_FP8] = {"tc_fp8", "tensor cores fp8 e4m3, fp32 accumulate (mma.sync)", "GFLOP/s",
                        GB_ROOF_COMPUTE, "ceilings/mma type=fp8"},
    [GB_ROOF_INT] = {"int", "32-bit integer multiply-add (IMAD)", "Gop/s", GB_ROOF_COMPUTE,
                     "throughput/arith op=imul,mode=tput"},
    [GB_ROOF_MUFU] = {"mufu", "special functions (MUFU: __sinf, rsqrtf)", "Gop/s", GB_ROOF_COMPUTE,
                      "throughput/arith op=__sinf|rsqrtf,mode=tput"},
    [GB_ROOF_ATOM_GLOBAL_ONE] = {"atom_global_one", "global atomicAdd, every thread one address", "Gatomic/s",
                                 GB_ROOF_OTHER, "ceilings/atomic_global addrs=one"},
    [GB_ROOF_ATOM_GLOBAL_FEW] = {"atom_global_few", "global atomicAdd, 64 addresses", "Gatomic/s", GB_ROOF_OTHER,
                                 "ceilings/atomic_global addrs=few"},
    [GB_ROOF_ATOM_GLOBAL_DISTINCT] = {"atom_global_distinct", "global atomicAdd, one address per thread",
                                      "Gatomic/s", GB_ROOF_OTHER, "ceilings/atomic_global addrs=distinct"},
    [GB_ROOF_ATOM_SHARED_ONE] = {"atom_shared_one", "shared atomicAdd, one address per block", "Gatomic/s",
                                 GB_ROOF_OTHER, "ceilings/atomic_shared addrs=one"},
    [GB_ROOF_ATOM_SHARED_DISTINCT] = {"atom_shared_distinct", "shared atomicAdd, one address per thread",
                                      "Gatomic/s", GB_ROOF_OTHER, "ceilings/atomic_shared addrs=distinct"},
    [GB_ROOF_LAUNCH] = {"launch", "fixed cost of a launch (fit t = a + V/b)", "ns", GB_ROOF_OTHER,
                        "ceilings/launch"},
    [GB_ROOF_LAT_L2] = {"lat_l2", "latency of a dependent load that hits L2 (one thread's chain)", "ns",
                        GB_ROOF_OTHER, "ceilings/latency level=l2"},
    [GB_ROOF_LAT_DRAM] = {"lat_dram", "latency of a dependent load that goes to DRAM (one thread's chain)", "ns",
                          GB_ROOF_OTHER, "ceilings/latency level=dram"},
};

int gb_roof_is_time(int roof)
{
    return roof >= 0 && roof < GB_N_ROOFS && strcmp(gb_roofs[roof].unit, "ns") == 0;
}

const struct gb_roof_info *gb_roof_info(int roof)
{
    return roof >= 0 && roof < GB_N_ROOFS ? &gb_roofs[roof] : NULL;
}

int gb_roof_find(const char *name)
{
    for (int r = 0; r < GB_N_ROOFS; r++)
        if (strcmp(gb_roofs[r].name, name) == 0)
            return r;
    return -1;
}

enum gb_roof gb_roof_of_level(enum gb_roof_level level)
{
    return level == GB_LEVEL_DRAM ? GB_ROOF_DRAM : level == GB_LEVEL_L2 ? GB_ROOF_L2 : GB_ROOF_SMEM;
}

const char *gb_roof_level_name(enum gb_roof_level level)
{
    return level == GB_LEVEL_DRAM ? "DRAM" : level == GB_LEVEL_L2 ? "L2" : "L1/shared";
}

/* Per-SM, per-clock figures that are not in the guide's arithmetic table:
 * the tensor cores' dense rates with fp32 accumulate (FLOP per clock per
 * SM: the datasheets' dense TFLOP/s over SMs x boost clock: A100 312 at
 * 1410 MHz x 108, A40 149.7 at 1740 MHz x 84, L40S 362/733 at 2520 MHz
 * x 142, H100 SXM 989/1979 at 1830 MHz x 132) and shared memory (32 banks
 * x 4 bytes per clock, every compute capability here). 0: none published. */
#define GB_ROOF_N_CC 4
static const int gb_roof_cc[GB_ROOF_N_CC] = {80, 86, 89, 90};
static const struct {
    int roof;
    double per_clk_sm[GB_ROOF_N_CC];
} gb_roof_sheet[] = {
    {GB_ROOF_TC_FP16, {2048, 1024, 1024, 4096}},
    {GB_ROOF_TC_BF16, {2048, 1024, 1024, 4096}},
    {GB_ROOF_TC_FP8, {0, 0, 2048, 8192}},
};

/* The guide's arithmetic row of roof r (throughput.h's table), its factor
 * (2 flops per FMA), or NULL. */
static const char *gb_roof_guide_row(int r, double *factor)
{
    *factor = 2.0;
    switch (r) {
    case GB_ROOF_FP32: return "fp32";
    case GB_ROOF_FP64: return "fp64";
    case GB_ROOF_FP16: case GB_ROOF_BF16: return "fp16";
    case GB_ROOF_INT: *factor = 1.0; return "imul";
    case GB_ROOF_MUFU: *factor = 1.0; return "mufu";
    default: return NULL;
    }
}

static double gb_roof_per_clk_sm(int r, int cc, const char **source)
{
    double factor;
    const char *row = gb_roof_guide_row(r, &factor);
    if (row) {
        *source = "CUDA C++ Programming Guide, throughput of native arithmetic instructions";
        return factor * gb_guide_rate(row, cc);
    }
    if (r == GB_ROOF_SMEM) {
        *source = "32 banks x 4 bytes per clock per SM";
        return 128.0;
    }
    *source = "datasheet dense rate per SM per clock";
    for (size_t i = 0; i < sizeof gb_roof_sheet / sizeof gb_roof_sheet[0]; i++)
        if (gb_roof_sheet[i].roof == r)
            for (int k = 0; k < GB_ROOF_N_CC; k++)
                if (gb_roof_cc[k] == cc)
                    return gb_roof_sheet[i].per_clk_sm[k];
    *source = "no published figure";
    return 0;
}

double gb_roof_guide(int r, const struct gb_device_info *d, const char **source)
{
    const char *src = "no published figure";
    double v = 0;
    if (r == GB_ROOF_DRAM) {
        src = "theoretical: 2 x memory clock x bus width";
        v = d->mem_peak_gbs;
    } else if (r >= 0 && r < GB_N_ROOFS && gb_roofs[r].cls != GB_ROOF_OTHER && r != GB_ROOF_L2 &&
               r != GB_ROOF_L2_WRITE) {
        double per = gb_roof_per_clk_sm(r, 10 * d->cc_major + d->cc_minor, &src);
        /* per clock per SM x SMs x MHz = 1e6 per second; in 1e9 per second: */
        v = per * d->sm_count * d->sm_clock_max_mhz * 1e-3;
        if (v <= 0)
            src = "no published figure for this compute capability";
    }
    if (source)
        *source = src;
    return v > 0 ? v : 0;
}

static int gb_axis_is(const struct gb_record *r, const char *axis, const char *value)
{
    const char *v = gb_record_axis(r, axis);
    return v && strcmp(v, value) == 0;
}

static int gb_roof_of_throughput(const struct gb_record *r)
{
    if (strcmp(r->bench, "smem") == 0)
        return gb_axis_is(r, "ways", "1") ? GB_ROOF_SMEM : -1;
    if (strcmp(r->bench, "arith") != 0 || !gb_axis_is(r, "mode", "tput"))
        return -1;
    const char *op = gb_record_axis(r, "op");
    if (!op)
        return -1;
    if (strcmp(op, "ffma") == 0)
        return GB_ROOF_FP32;
    if (strcmp(op, "dfma") == 0)
        return GB_ROOF_FP64;
    if (strcmp(op, "imul") == 0)
        return GB_ROOF_INT;
    if (strcmp(op, "__sinf") == 0 || strcmp(op, "rsqrtf") == 0)
        return GB_ROOF_MUFU;
    return -1;
}

static int gb_roof_of_ceilings(const struct gb_record *r)
{
    const char *b = r->bench;
    if (strcmp(b, "l2_read") == 0)
        return GB_ROOF_L2;
    if (strcmp(b, "l2_write") == 0)
        return GB_ROOF_L2_WRITE;
    if (strcmp(b, "smem") == 0)
        return GB_ROOF_SMEM;
    if (strcmp(b, "hfma2") == 0)
        return gb_axis_is(r, "type", "bf16x2") ? GB_ROOF_BF16 : GB_ROOF_FP16;
    if (strcmp(b, "mma") == 0)
        return gb_axis_is(r, "type", "fp8") ? GB_ROOF_TC_FP8
               : gb_axis_is(r, "type", "bf16") ? GB_ROOF_TC_BF16 : GB_ROOF_TC_FP16;
    if (strcmp(b, "wgmma") == 0)
        return gb_axis_is(r, "type", "fp16") ? GB_ROOF_TC_FP16 : GB_ROOF_TC_BF16;
    if (strcmp(b, "atomic_global") == 0)
        return gb_axis_is(r, "addrs", "one") ? GB_ROOF_ATOM_GLOBAL_ONE
               : gb_axis_is(r, "addrs", "few") ? GB_ROOF_ATOM_GLOBAL_FEW : GB_ROOF_ATOM_GLOBAL_DISTINCT;
    if (strcmp(b, "atomic_shared") == 0)
        return gb_axis_is(r, "addrs", "one") ? GB_ROOF_ATOM_SHARED_ONE : GB_ROOF_ATOM_SHARED_DISTINCT;
    if (strcmp(b, "launch") == 0)
        return GB_ROOF_LAUNCH;
    if (strcmp(b, "latency") == 0)
        return gb_axis_is(r, "level", "dram") ? GB_ROOF_LAT_DRAM : GB_ROOF_LAT_L2;
    return -1;
}

int gb_roof_of_record(const struct gb_record *r)
{
    if (r->status != GB_REC_OK)
        return -1;
    if (strcmp(r->suite, "bandwidth") == 0)
        return GB_ROOF_DRAM;
    if (strcmp(r->suite, "throughput") == 0)
        return gb_roof_of_throughput(r);
    if (strcmp(r->suite, "ceilings") == 0)
        return gb_roof_of_ceilings(r);
    return -1;
}

double gb_roof_record_rate(const struct gb_record *r, const struct gb_device_info *d)
{
    int roof = gb_roof_of_record(r);
    if (roof < 0)
        return NAN;
    if (roof == GB_ROOF_LAUNCH)
        return r->time_ns.median > 0 ? r->time_ns.median : NAN;
    if (roof == GB_ROOF_LAT_L2 || roof == GB_ROOF_LAT_DRAM) {  /* the time over the chain's loads */
        double loads = gb_record_metric(r, "loads", NAN);
        return loads > 0 && r->time_ns.median > 0 ? r->time_ns.median / loads : NAN;
    }
    if (strcmp(r->suite, "throughput") == 0) {
        /* Rates per clock per SM from the SMs' own cycle counters. */
        double mhz = gb_record_metric(r, "sm_mhz", NAN);
        if (!(mhz > 0))
            mhz = r->sm_mhz_before > 0 ? r->sm_mhz_before : d->sm_clock_max_mhz;
        double per = roof == GB_ROOF_SMEM ? gb_record_metric(r, "bytes_per_clk_sm", NAN)
                                          : gb_record_metric(r, "ops_per_clk_sm", NAN);
        double factor = roof == GB_ROOF_FP32 || roof == GB_ROOF_FP64 ? 2.0 : 1.0;
        double v = factor * per * d->sm_count * mhz * 1e-3;
        return v > 0 ? v : NAN;
    }
    if (gb_roofs[roof].cls == GB_ROOF_MEMORY)
        return r->bw_gbs > 0 ? r->bw_gbs : NAN;
    return r->gflops > 0 ? r->gflops : NAN;
}

void gb_ceilings_guide(const struct gb_device_info *d, struct gb_ceilings *c)
{
    memset(c, 0, sizeof *c);
    c->device = *d;
    for (int r = 0; r < GB_N_ROOFS; r++) {
        c->guide[r] = gb_roof_guide(r, d, &c->guide_source[r]);
        c->measured_value[r] = NAN;
        c->value[r] = c->guide[r] > 0 ? c->guide[r] : NAN;
        c->is_guide[r] = c->guide[r] > 0;
    }
    c->launch_a_ns = NAN;
    c->launch_b_blocks_per_ns = NAN;
}

enum gb_status gb_ceilings_fit_launch(const double *v, const double *t_ns, size_t n, double *a_ns, double *b)
{
    double c0, c1, cov00, cov01, cov11, sumsq;
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        distinct += i == 0 || v[i] != v[0];
    if (n < 2 || distinct < 2)
        return gb_error_set(GB_ERR_USAGE, "the launch fit needs at least two grid sizes, got %zu", distinct);
    if (gsl_fit_linear(v, 1, t_ns, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) != 0)
        return gb_error_set(GB_ERR_USAGE, "the launch fit failed (GSL gsl_fit_linear)");
    *a_ns = c0;
    *b = c1 > 0 ? 1.0 / c1 : INFINITY;
    return GB_OK;
}

static void gb_record_label(const struct gb_record *r, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s/%s", r->suite, r->bench);
    for (int a = 0; a < r->n_axes && len < n; a++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", a ? "," : " ", r->axes[a].name, r->axes[a].value);
}

/* The launch bench's points: the fit of t = a + V/b, V the blocks. */
static void gb_ceilings_launch(const struct gb_run *run, struct gb_ceilings *c)
{
    double v[256], t[256];
    size_t n = 0;
    for (size_t i = 0; i < run->n_records && n < 256; i++) {
        const struct gb_record *r = &run->records[i];
        if (gb_roof_of_record(r) != GB_ROOF_LAUNCH || !(r->time_ns.median > 0))
            continue;
        v[n] = gb_record_axis_num(r, "blocks", NAN);
        t[n] = r->time_ns.median;
        n += isfinite(v[n]);
    }
    c->launch_n = (int)n;
    if (gb_ceilings_fit_launch(v, t, n, &c->launch_a_ns, &c->launch_b_blocks_per_ns) != GB_OK) {
        c->launch_a_ns = NAN;
        c->launch_b_blocks_per_ns = NAN;
    }
}

enum gb_status gb_ceilings_from_run(const struct gb_run *run, struct gb_ceilings *c)
{
    int any = 0;
    if (!run->info.has_device)
        return gb_error_set(GB_ERR_FORMAT, "%s has no device in its run.json: its rates cannot be placed", run->dir);
    gb_ceilings_guide(&run->info.device, c);
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        int roof = gb_roof_of_record(r);
        double v = roof >= 0 ? gb_roof_record_rate(r, &c->device) : NAN;
        if (!isfinite(v))
            continue;
        int better = gb_roof_is_time(roof) ? !(v >= c->measured_value[roof]) : !(v <= c->measured_value[roof]);
        c->points[roof]++;
        any = 1;
        if (better) {
            c->measured_value[roof] = v;
            gb_record_label(r, c->best[roof], sizeof c->best[roof]);
        }
    }
    if (!any) /* the run holds no roof: bad data for a ceilings run (exit 1) */
        return gb_error_set(GB_ERR_FORMAT,
                            "%s measured no roof: record one with 'gpubound run ceilings bandwidth/read "
                            "throughput/arith --set op=ffma,dfma,imul,__sinf --set mode=tput --out DIR'",
                            run->dir);
    c->measured = 1;
    snprintf(c->run_dir, sizeof c->run_dir, "%s", run->dir);
    for (int r = 0; r < GB_N_ROOFS; r++)
        if (isfinite(c->measured_value[r])) {
            c->value[r] = c->measured_value[r];
            c->is_guide[r] = 0;
        }
    gb_ceilings_launch(run, c);
    if (isfinite(c->launch_a_ns))
        c->value[GB_ROOF_LAUNCH] = c->launch_a_ns;
    return GB_OK;
}
