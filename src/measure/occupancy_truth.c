/* occupancy_truth.c - the driver's own occupancy answers for compiled
 * variants of kernels/occupancy.cu, the table the occupancy calculator is
 * tested against (session.h, gb_session_record_occupancy_truth).
 *
 * Kernel variants and launch inputs: occupancy_truth.h. Each register
 * variant is compiled with two static sizes; launch-time inputs (block size,
 * dynamic shared memory, carveout) are varied on every module. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/session.h"
#include "measure/occupancy_truth.h"
#include "util/fs.h"
#include "util/git_rev.h"

#define N_OF(a) GB_TRUTH_N(a)

/* One compiled variant being asked about. */
struct gb_truth_variant {
    CUfunction fn;
    int regs, st_smem, max_threads;
    int dyn_max;                 /* the most dynamic shared memory the kernel can opt in to */
    int dyn_default;             /* its max-dynamic-shared-memory attribute before any set */
    int dyn_ok[16], n_dyn;       /* dynamic sizes that fit */
};

/* The recording in progress. */
struct gb_truth {
    struct gb_gpu *g;
    const struct gb_device_info *d;
    FILE *f;
    struct gb_truth_summary *sum;
    int readback_noted;
};

static void gb_truth_header(const struct gb_truth *t, const char *when)
{
    const struct gb_device_info *d = t->d;
    FILE *f = t->f;
    fprintf(f, "# gpubound occupancy truth table: cuOccupancyMaxActiveBlocksPerMultiprocessor "
               "for compiled variants of kernels/occupancy.cu\n");
    fprintf(f, "# device: %s (%s), driver %d, recorded %s by gpubound %s (%s)\n", t->sum->device_name, d->uuid,
            d->driver_version, when, GB_VERSION, gb_git_rev);
    fprintf(f, "# limits: cc=%d.%d warp_size=%d max_threads_per_block=%d max_threads_per_sm=%d "
               "max_blocks_per_sm=%d regs_per_sm=%d regs_per_block=%d smem_per_sm=%d "
               "smem_per_block=%d smem_per_block_optin=%d smem_reserved_per_block=%d\n",
            d->cc_major, d->cc_minor, d->warp_size, d->max_threads_per_block, d->max_threads_per_sm,
            d->max_blocks_per_sm, d->regs_per_sm, d->regs_per_block, d->smem_per_sm, d->smem_per_block,
            d->smem_per_block_optin, d->smem_reserved_per_block);
    fprintf(f, "# rows: per block size and carveout three dynamic sizes: opted in to exactly the request, "
               "the attribute at the kernel's whole opt-in space, and a request above the attribute "
               "(left at its default when the request exceeds that, else set below the request)\n");
    fprintf(f, "device,cc,threads,regs,static_smem,dyn_smem,max_dyn_smem,carveout,blocks\n");
}

/* Compiles variant (ri, pick) and reads its attributes. */
static enum gb_status gb_truth_compile(struct gb_truth *t, size_t ri, int pick, char o[3][32],
                                       struct gb_truth_variant *v)
{
    enum gb_status st = GB_OK;
    const struct gb_device_info *d = t->d;
    const char *opts[] = {o[0], o[1], o[2]};
    CUmodule mod;
    memset(v, 0, sizeof *v);
    gb_truth_variant_opts(ri, pick, o);
    if ((st = gb_gpu_module(t->g, "occupancy.cu", opts, 3, &mod)) != GB_OK ||
        (st = gb_gpu_function(mod, "gb_occupancy_probe", &v->fn)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&v->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, v->fn));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&v->st_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, v->fn));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&v->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, v->fn));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&v->dyn_default, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              v->fn));
    v->dyn_max = d->smem_per_block_optin - v->st_smem;
    const int dyn_values[] = {0, 1, 1024, 5000, 20480, d->smem_per_block - v->st_smem, 65536, 100000, 150000,
                              v->dyn_max};
    for (size_t k = 0; k < N_OF(dyn_values); k++)
        if (dyn_values[k] >= 0 && dyn_values[k] <= v->dyn_max)
            v->dyn_ok[v->n_dyn++] = dyn_values[k];
out:
    return st;
}

/* Sets the attributes of one configuration and asks the driver; the values
 * read back come in got_max / got_carve. */
static CUresult gb_truth_ask(const struct gb_truth_variant *v, int threads, int dyn, int want_max, int carve,
                             int *got_max, int *got_carve, int *blocks)
{
    CUresult r = gb_cu->cuFuncSetAttribute(v->fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carve);
    if (r == CUDA_SUCCESS)
        r = gb_cu->cuFuncSetAttribute(v->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, want_max);
    if (r == CUDA_SUCCESS)
        r = gb_cu->cuFuncGetAttribute(got_max, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, v->fn);
    if (r == CUDA_SUCCESS)
        r = gb_cu->cuFuncGetAttribute(got_carve, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, v->fn);
    if (r == CUDA_SUCCESS)
        r = gb_cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, v->fn, threads, (size_t)dyn);
    return r;
}

/* One configuration: a row, or a refusal counted (a configuration the
 * driver refuses has no answer to compare with). */
static void gb_truth_config(struct gb_truth *t, const struct gb_truth_variant *v, int threads, int dyn,
                            int want_max, int carve)
{
    int got_max = -1, got_carve = -2, blocks = -1;
    CUresult r = gb_truth_ask(v, threads, dyn, want_max, carve, &got_max, &got_carve, &blocks);
    if (r != CUDA_SUCCESS) {
        if (!t->sum->first_refusal[0]) {
            const char *es = NULL;
            gb_cu->cuGetErrorName(r, &es);
            snprintf(t->sum->first_refusal, sizeof t->sum->first_refusal,
                     "threads=%d regs=%d static=%d dyn=%d carveout=%d: %s", threads, v->regs, v->st_smem, dyn,
                     carve, es ? es : "error");
        }
        t->sum->skipped++;
        return;
    }
    /* The row holds the attribute values as set; a driver that reads them
     * back differently is noted. */
    if ((got_max != want_max || got_carve != carve) && !t->readback_noted) {
        fprintf(t->f, "# note: set max_dyn_smem=%d carveout=%d, the driver reads back %d and %d\n", want_max,
                carve, got_max, got_carve);
        t->readback_noted = 1;
    }
    fprintf(t->f, "%s,%d.%d,%d,%d,%d,%d,%d,%d,%d\n", t->sum->device_name, t->d->cc_major, t->d->cc_minor, threads,
            v->regs, v->st_smem, dyn, want_max, carve, blocks);
    t->sum->rows++;
}

/* A request above the kernel's attribute (the launch the driver refuses):
 * a non-zero size from the list, with the attribute at its default when the
 * request exceeds that (a kernel that never opted in), else just below the
 * request or 0, alternately. */
static void gb_truth_over_attribute(struct gb_truth *t, const struct gb_truth_variant *v, int threads, int carve,
                                    size_t pick)
{
    if (v->n_dyn < 2)
        return;
    const int dyn = v->dyn_ok[1 + pick % (size_t)(v->n_dyn - 1)];
    int want_max = dyn > v->dyn_default ? v->dyn_default : (pick & 1) ? dyn - 1 : 0;
    if (dyn < 1 || want_max < 0)
        return;
    gb_truth_config(t, v, threads, dyn, want_max, carve);
}

/* Every launch input on one variant: three dynamic sizes per (block,
 * carveout), spread over the list; the first opted in to exactly the
 * request, the second with the kernel's maximum opted in to the whole
 * remaining opt-in space, the third above the attribute. */
static void gb_truth_launches(struct gb_truth *t, const struct gb_truth_variant *v)
{
    const size_t m = (size_t)t->sum->modules, n_dyn = (size_t)v->n_dyn;
    for (size_t ti = 0; ti < N_OF(gb_truth_threads); ti++) {
        for (size_t ci = 0; ci < N_OF(gb_truth_carveout); ci++) {
            int k1 = (int)((m * 7 + ti * 3 + ci) % n_dyn);
            int k2 = (int)((m * 5 + ti + ci * 3 + 4) % n_dyn);
            if (k2 == k1)
                k2 = (k1 + 1) % v->n_dyn;
            gb_truth_config(t, v, gb_truth_threads[ti], v->dyn_ok[k1], v->dyn_ok[k1], gb_truth_carveout[ci]);
            gb_truth_config(t, v, gb_truth_threads[ti], v->dyn_ok[k2], v->dyn_max, gb_truth_carveout[ci]);
            gb_truth_over_attribute(t, v, gb_truth_threads[ti], gb_truth_carveout[ci], m * 11 + ti * 5 + ci);
        }
    }
}

static enum gb_status gb_truth_table(struct gb_truth *t)
{
    enum gb_status st = GB_OK;
    for (size_t ri = 0; ri < N_OF(gb_truth_regs); ri++) {
        for (int pi = 0; pi < 2; pi++) {
            int pick = gb_truth_static_pick(ri, pi);
            struct gb_truth_variant v;
            char o[3][32];
            if (pick < 0)
                continue;
            if ((st = gb_truth_compile(t, ri, pick, o, &v)) != GB_OK)
                return st;
            t->sum->modules++;
            fprintf(t->f, "# variant %d: %s %s %s -> regs=%d static_smem=%d max_threads_per_block=%d "
                          "default_max_dyn_smem=%d\n",
                    t->sum->modules, o[0], o[1], o[2], v.regs, v.st_smem, v.max_threads, v.dyn_default);
            gb_truth_launches(t, &v);
        }
    }
    return st;
}

/* <path>.run.json: the recording's provenance beside it, as for every run. */
static enum gb_status gb_truth_write_meta(struct gb_session *s, const char *path, int rows)
{
    char meta[GB_PATH_MAX + 16];
    struct gb_atomic_file a;
    enum gb_status st;
    gb_session_finish(s, 1);
    s->info.points_ok = rows;
    snprintf(meta, sizeof meta, "%s.run.json", path);
    if ((st = gb_atomic_open(&a, meta, "w")) != GB_OK)
        return st;
    if ((st = gb_run_info_write_json(a.f, &s->info)) != GB_OK) {
        gb_atomic_abort(&a);
        return gb_error_set(GB_ERR_IO, "cannot write %s: %s", meta, strerror(errno));
    }
    return gb_atomic_commit(&a);
}

enum gb_status gb_session_record_occupancy_truth(struct gb_session *s, const char *path,
                                                 struct gb_truth_summary *sum)
{
    struct gb_atomic_file a;
    struct gb_truth t;
    enum gb_status st;
    memset(sum, 0, sizeof *sum);
    memset(&t, 0, sizeof t);
    /* A comma in the name would break the CSV. */
    snprintf(sum->device_name, sizeof sum->device_name, "%s", s->gpu.info.name);
    for (char *c = sum->device_name; *c; c++)
        if (*c == ',' || *c == '\n' || *c == '\r')
            *c = ' ';
    if ((st = gb_atomic_open(&a, path, "w")) != GB_OK)
        return st;
    t.g = &s->gpu;
    t.d = &s->gpu.info;
    t.f = a.f;
    t.sum = sum;
    gb_truth_header(&t, s->info.started_utc);
    if ((st = gb_truth_table(&t)) != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    if ((st = gb_atomic_commit(&a)) != GB_OK)
        return st;
    return gb_truth_write_meta(s, path, sum->rows);
}
