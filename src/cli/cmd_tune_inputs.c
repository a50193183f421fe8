/* cmd_tune_inputs.c - the breakdown's inputs of a tuning space's
 * configurations (cmd_tune_inputs.h). */
#include "cli/cmd_tune_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/lpbm.h"
#include "gpubound/results.h"

/* 1 when point p's labels hold every axis value of item `it` and no other. */
static int gb_tune_inputs_match(const struct gb_plan_item *it, const struct gb_lpbm_point *p)
{
    char all[300], tok[128];
    int words = 0;
    snprintf(all, sizeof all, " %s %s ", p->config, p->problem);
    for (const char *c = all; *c; c++)
        words += c[0] != ' ' && (c == all || c[-1] == ' ');
    if (words != it->n_axes)
        return 0;
    for (int a = 0; a < it->n_axes; a++) {
        snprintf(tok, sizeof tok, " %s=%s ", it->axis_name[a], it->axis_value[a]);
        if (!strstr(all, tok))
            return 0;
    }
    return 1;
}

void gb_tune_inputs_replay(const char *dir, const struct gb_plan *plan, struct gb_tune_inputs *out)
{
    struct gb_run *run = NULL;
    struct gb_lpbm_spec *spec = NULL;
    char path[4096];
    memset(out, 0, sizeof *out);
    if (gb_run_load(dir, &run) != GB_OK || gb_lpbm_spec_locate(run, NULL, path, sizeof path) != GB_OK ||
        gb_lpbm_spec_load(path, &spec) != GB_OK ||
        gb_lpbm_input_build(run, spec, plan->items[0].bench->name, NULL, NULL, &out->in) != GB_OK) {
        snprintf(out->why, sizeof out->why, "%s", gb_error_message());
        goto out;
    }
    if (!(out->pt = calloc(plan->n, sizeof *out->pt))) {
        snprintf(out->why, sizeof out->why, "out of host memory");
        gb_lpbm_input_release(&out->in);
        goto out;
    }
    out->n = plan->n;
    out->have = 1;
    for (size_t i = 0; i < plan->n; i++) {
        out->pt[i] = (size_t)-1;
        for (size_t j = 0; j < out->in.n && out->pt[i] == (size_t)-1; j++)
            if (gb_tune_inputs_match(&plan->items[i], &out->in.pts[j]))
                out->pt[i] = j;
    }
out:
    gb_error_clear();
    gb_lpbm_spec_free(spec);
    gb_run_free(run);
}

void gb_tune_inputs_release(struct gb_tune_inputs *t)
{
    if (t->have)
        gb_lpbm_input_release(&t->in);
    free(t->pt);
    memset(t, 0, sizeof *t);
}

int gb_tune_inputs_get(void *ctx, size_t idx, struct gb_lpbm_point *p)
{
    const struct gb_tune_inputs *t = ctx;
    if (!t->have || idx >= t->n || t->pt[idx] == (size_t)-1) {
        gb_error_set(GB_ERR_UNSUPPORTED, "%s", t->have ? "the replayed sweep has no ok record of it" : t->why);
        return 0;
    }
    *p = t->in.pts[t->pt[idx]];
    return 1;
}
