/* campprof_run.c - CampProf's drivers (camp_run.h): fit and write, predict
 * a kernel's band with its achieved warps and domain, validate every
 * application of several runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/camp_run.h"
#include "gpubound/occupancy.h"
#include "util/fs.h"
#include "util/stage.h"

/* ---- fit ---- */

enum gb_status gb_camp_fit_run(const struct gb_run *run, const struct gb_camp_fit_opts *o,
                               struct gb_camp_model *m, char *written, size_t n)
{
    struct gb_stage stage = {.open = 0};
    char staged[GB_PATH_MAX + 64], path[GB_PATH_MAX + 64];
    enum gb_status st;
    if (!o->model_path && !o->out_dir)
        return gb_error_set(GB_ERR_USAGE, "camp fit needs a directory or a file to write the model to");
    if ((st = gb_camp_fit_form(run, o->p_remove, o->form, GB_CAMP_LEVEL_UNKNOWN, m)) != GB_OK)
        return st;
    if (o->model_path) {
        snprintf(path, sizeof path, "%s", o->model_path);
    } else {
        size_t len = strlen(o->out_dir);
        while (len > 1 && o->out_dir[len - 1] == '/')
            len--;
        snprintf(path, sizeof path, "%.*s/campprof-model.json", (int)len, o->out_dir);
    }
    if ((st = gb_camp_model_guard(path, m, o->force)) != GB_OK)
        goto out;
    if (o->model_path)
        st = gb_stage_open_file(&stage, path, staged, sizeof staged);
    else if ((st = gb_stage_open(&stage, o->out_dir)) == GB_OK)
        st = gb_stage_path(&stage, "campprof-model.json", staged, sizeof staged);
    if (st == GB_OK && (st = gb_camp_model_write(m, staged)) == GB_OK)
        st = gb_stage_commit(&stage);
    if (st != GB_OK)
        st = gb_stage_fail(&stage, st);
out:
    gb_stage_abort(&stage);
    if (st == GB_OK && written)
        snprintf(written, n, "%s", path);
    return st;
}

/* ---- predict ---- */

/* The block (warps per block) and grid of configuration `w`: the launch's
 * own block at w / (its warps per block) resident blocks when that
 * divides, else the largest block (in whole warps) that divides w, the
 * grid being the launch's threads in blocks of that size. *grid is 0
 * without a grid or a launch (--warps). */
static void row_shape(const struct gb_device_info *dev, const struct gb_camp_predict_in *in, int w,
                      int *wpb, long *grid)
{
    const int ws = dev->warp_size > 0 ? dev->warp_size : 32;
    *grid = 0;
    *wpb = 1;
    if (in->warps_max > 0 || in->grid <= 0 || in->threads <= 0)
        return;
    const int own = (int)((in->threads + ws - 1) / ws);
    *wpb = own;
    *grid = in->grid;
    if (w % own != 0) {
        for (*wpb = w; *wpb > 1 && (w % *wpb != 0 || *wpb * ws > dev->max_threads_per_block); (*wpb)--)
            ;
        *grid = (long)ceil((double)in->grid * (double)in->threads / ((double)*wpb * ws));
    }
}

/* The achieved warps per SM of configuration `w` (gb_occupancy_achieved
 * of row_shape's block and grid); w itself without a grid or an SM count. */
static double row_achieved(const struct gb_device_info *dev, const struct gb_camp_predict_in *in, int w)
{
    struct gb_occupancy_achieved a;
    int wpb;
    long grid;
    row_shape(dev, in, w, &wpb, &grid);
    if (grid > 0 && dev->sm_count > 0 && gb_occupancy_achieved(grid, wpb, w / wpb, dev->sm_count, &a) == GB_OK)
        return a.warps_per_sm;
    return w;
}

/* The observation of configuration `w` (achieved warps `achieved`): its
 * time, bytes (the sectors, else the counts at their widths), level
 * bytes, grid and warps. */
static void predict_obs(const struct gb_device_info *dev, const struct gb_camp_predict_in *in, int w,
                        double achieved, struct gb_camp_obs *obs)
{
    int wpb;
    long grid;
    memset(obs, 0, sizeof *obs);
    row_shape(dev, in, w, &wpb, &grid);
    obs->time_ns = in->time_ns;
    obs->limit_warps = w;
    obs->warps = obs->achieved_warps = achieved;
    obs->measured_warps = in->measured_warps;
    obs->grid_blocks = grid > 0 ? (double)grid : NAN;
    obs->counts = in->counts;
    double sectors = in->counts.ld_sectors + in->counts.st_sectors;
    for (int k = 0; !(sectors > 0) && k < GB_CAMP_N_WIDTHS; k++)
        obs->bytes += 32.0 * gb_camp_class_width(k) * (in->counts.ld[k] + in->counts.st[k]);
    if (sectors > 0)
        obs->bytes = 32.0 * sectors;
    obs->dram_read_bytes = in->dram_read_bytes;
    obs->dram_write_bytes = in->dram_write_bytes;
    obs->l2_read_bytes = in->l2_read_bytes;
    obs->l2_write_bytes = in->l2_write_bytes;
    obs->hot = in->hot;
}

/* The index of the measured configuration among r->warps, or an error. */
static enum gb_status at_index(const struct gb_camp_predict_result *r, size_t *at)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->warps[i] == (int)r->at_warps) {
            *at = i;
            return GB_OK;
        }
    if (r->at_warps <= 0)
        return gb_error_set(GB_ERR_USAGE, "the launch as given cannot run on this device, so the "
                            "measured time has no configuration; give --at-warps");
    char list[512];
    size_t len = 0;
    list[0] = '\0';
    for (size_t i = 0; i < r->n && len < sizeof list - 16; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", i ? ", " : "", r->warps[i]);
    return gb_error_set(GB_ERR_USAGE, "%g active warps per SM is not among the configurations "
                        "the occupancy calculator allows (%s)", r->at_warps, list);
}

/* Each configuration's achieved warps (the measured value at the launch's
 * own configuration where the launch carries it). */
static void predict_achieved(const struct gb_device_info *dev, const struct gb_camp_predict_in *in,
                             struct gb_camp_predict_result *out)
{
    for (size_t i = 0; i < out->n; i++) {
        out->achieved[i] = row_achieved(dev, in, out->warps[i]);
        if (out->warps[i] == out->config_warps && in->warps_max <= 0 && in->measured_warps > 0) {
            out->grid_warps = out->achieved[i];
            out->achieved[i] = in->measured_warps;
        }
    }
}

enum gb_status gb_camp_predict_run(const struct gb_camp_model *m, const struct gb_device_info *dev,
                                   const struct gb_camp_predict_in *in, const struct gb_ceilings *c,
                                   struct gb_camp_predict_result *out)
{
    struct gb_camp_config cfg = {(int)in->threads, (int)in->regs,
                                 (int)((in->smem < 0 ? 0 : in->smem) + (in->dyn_smem < 0 ? 0 : in->dyn_smem)),
                                 in->grid < 0 ? 0 : in->grid};
    enum gb_status st;
    size_t at = 0;
    memset(out, 0, sizeof *out);
    out->degree = out->at_warps = out->achieved_warps = out->grid_warps = NAN;
    out->domain.why = GB_CAMP_DOMAIN_UNJUDGED;
    gb_camp_roof_best(NULL, NULL, &out->roof);
    if (!(out->warps = calloc((size_t)gb_camp_max_warps(dev) + 1, sizeof *out->warps)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if ((st = gb_camp_configurations(dev, &cfg, in->warps_max > 0 ? (int)in->warps_max : 0, out->warps,
                                     &out->n, &out->config_warps)) != GB_OK)
        return st;
    if (out->config_warps <= 0)
        return gb_error_set(GB_ERR_USAGE, "a block of %ld threads with %ld registers per thread and %d "
                            "bytes of shared memory cannot run on compute capability %d.%d (0 active "
                            "warps per SM, as 'gpubound occupancy' says); give the launch the kernel "
                            "runs with", in->threads, in->regs, cfg.smem, dev->cc_major, dev->cc_minor);
    out->at_warps = in->at > 0 ? (double)in->at : (double)out->config_warps;
    if (isfinite(in->time_ns) && (st = at_index(out, &at)) != GB_OK)
        return st;
    if (!(out->rows = calloc(out->n, sizeof *out->rows)) ||
        !(out->achieved = calloc(out->n, sizeof *out->achieved)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    predict_achieved(dev, in, out);
    struct gb_camp_obs obs;
    int w0 = isfinite(in->time_ns) ? out->warps[at] : out->config_warps;
    predict_obs(dev, in, w0, isfinite(in->time_ns) ? out->achieved[at] : (double)w0, &obs);
    gb_camp_roof_best(c, &obs, &out->roof);
    const struct gb_camp_band_in band = {&in->counts, out->warps, out->achieved, out->n,
                                         obs.warps, in->time_ns, out->roof.best_ns, in->inflight_bytes};
    if ((st = gb_camp_predict_band(m, &band, out->rows, &out->degree)) != GB_OK || !isfinite(in->time_ns))
        return st;
    out->achieved_warps = obs.warps;
    gb_camp_domain_judge(m, c, dev->sm_count, &obs, &out->domain);
    if (!gb_camp_domain_applies(out->domain.why)) {
        out->degree = NAN;
        for (size_t i = 0; i < out->n; i++)
            out->rows[i].app_ns = NAN;
    }
    return GB_OK;
}

void gb_camp_predict_result_release(struct gb_camp_predict_result *r)
{
    if (!r)
        return;
    free(r->warps);
    free(r->achieved);
    free(r->rows);
    memset(r, 0, sizeof *r);
}

/* ---- validate ---- */

/* Appends the applications of `run` to out->apps, each kernel-spec
 * configuration with its bytes in flight where the model can use them. */
static enum gb_status collect_apps(const struct gb_camp_model *m, const struct gb_run *run,
                                   gb_camp_apps_hook inflight, struct gb_camp_validate_result *out)
{
    struct gb_camp_app *more = NULL;
    size_t n_more = 0, missing = 0;
    char why[sizeof out->inflight_why];
    enum gb_status st = gb_camp_records_apps(run, &more, &n_more);
    if (st != GB_OK || n_more == 0)
        goto out;
    if (m->inflight_product > 0 && inflight) {
        inflight(run, more, n_more, &missing, why, sizeof why);
        if (missing && !out->inflight_missing)
            snprintf(out->inflight_why, sizeof out->inflight_why, "%s", why);
        out->inflight_missing += missing;
    }
    struct gb_camp_app *all = realloc(out->apps, (out->n_apps + n_more) * sizeof *all);
    if (!all) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    memcpy(all + out->n_apps, more, n_more * sizeof *more);
    out->apps = all;
    out->n_apps += n_more;
    free(more);
    more = NULL;
    n_more = 0;
out:
    gb_camp_apps_free(more, n_more);
    return st;
}

/* Validates every application collected. */
static enum gb_status validate_apps(const struct gb_camp_model *m, const struct gb_ceilings *c,
                                    const struct gb_run *const *runs, size_t n_runs,
                                    struct gb_camp_validate_result *out)
{
    enum gb_status st = GB_OK;
    if (out->n_apps == 0) {
        char list[256];
        gb_camp_app_list(list, sizeof list);
        return gb_error_set(GB_ERR_FORMAT, "%s has no measured validation records (%s, or kernel-spec "
                            "points with active_warps_per_sm)", n_runs ? runs[0]->dir : "no run", list);
    }
    if (!(out->v = calloc(out->n_apps, sizeof *out->v)) ||
        !(out->domain = calloc(out->n_apps, sizeof *out->domain)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (size_t a = 0; a < out->n_apps; a++) {
        struct gb_camp_app *g = &out->apps[a];
        gb_camp_app_roofs(c, g);
        if (!(out->domain[a] = calloc(g->n ? g->n : 1, sizeof **out->domain)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        if ((st = gb_camp_validate_app(m, c, g, out->domain[a], &out->v[a])) != GB_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", gb_error_message());
            return gb_error_set(st == GB_ERR_USAGE ? GB_ERR_FORMAT : st, "%s: %s", g->label, msg);
        }
    }
    return GB_OK;
}

enum gb_status gb_camp_validate_run(const struct gb_camp_model *m, const struct gb_ceilings *c,
                                    const struct gb_run *const *runs, size_t n_runs,
                                    gb_camp_apps_hook inflight, struct gb_camp_validate_result *out)
{
    enum gb_status st = GB_OK;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n_runs && st == GB_OK; i++)
        st = collect_apps(m, runs[i], inflight, out);
    return st == GB_OK ? validate_apps(m, c, runs, n_runs, out) : st;
}

void gb_camp_validate_result_release(struct gb_camp_validate_result *r)
{
    if (!r)
        return;
    for (size_t a = 0; r->domain && a < r->n_apps; a++)
        free(r->domain[a]);
    free(r->domain);
    free(r->v);
    gb_camp_apps_free(r->apps, r->n_apps);
    memset(r, 0, sizeof *r);
}
