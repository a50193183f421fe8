/* lpbm_counters.c - the measured counts the counters form of the breakdown
 * reads (gpubound/lpbm_input.h): the metric names, spelled once, and a
 * reader of the "counters" objects of a run's results.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gpubound/lpbm_input.h"

/* Nsight Compute's names for what the counters form needs. */
#define GB_LPBM_M_INST "smsp__inst_executed.sum"
#define GB_LPBM_M_GLD "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define GB_LPBM_M_GST "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
#define GB_LPBM_M_SHARED "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"

int gb_lpbm_counters_fill(struct gb_lpbm_point *p, const struct gb_record *r, size_t index,
                          gb_lpbm_counter_fn fn, void *ctx)
{
    double inst = fn(ctx, r, index, GB_LPBM_M_INST);
    double ld = fn(ctx, r, index, GB_LPBM_M_GLD), st = fn(ctx, r, index, GB_LPBM_M_GST);
    double sh = fn(ctx, r, index, GB_LPBM_M_SHARED);
    p->c_inst = inst;
    p->c_global_sectors = isfinite(ld) && isfinite(st) ? ld + st : NAN;
    p->c_shared_wavefronts = sh;
    return isfinite(p->c_inst) && isfinite(p->c_global_sectors) && isfinite(sh);
}

/* One json object per record of the run, in the order of results.json. */
struct gb_lpbm_counters {
    json_t **rec;
    size_t n;
};

static enum gb_status read_lines(FILE *f, struct gb_lpbm_counters *c, size_t cap)
{
    char *line = NULL;
    size_t ln = 0;
    ssize_t got;
    while ((got = getline(&line, &ln, f)) > 0 && c->n < cap) {
        char *s = line;
        while (*s == '[' || *s == ' ' || *s == ',')
            s++;
        if (*s != '{')
            continue;
        size_t len = strlen(s);
        while (len && (s[len - 1] == '\n' || s[len - 1] == ',' || s[len - 1] == ']' ||
                       s[len - 1] == ' '))
            s[--len] = '\0';
        json_t *o = json_loads(s, 0, NULL);
        json_t *cn = o ? json_object_get(o, "counters") : NULL;
        c->rec[c->n++] = cn ? json_incref(cn) : NULL;
        json_decref(o);
    }
    free(line);
    return GB_OK;
}

enum gb_status gb_lpbm_counters_load(const struct gb_run *run, struct gb_lpbm_counters **out)
{
    struct gb_lpbm_counters *c = calloc(1, sizeof *c);
    FILE *f;
    *out = NULL;
    if (!c || !(c->rec = calloc(run->n_records ? run->n_records : 1, sizeof *c->rec))) {
        free(c);
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    }
    /* A compressed records file carries no counters this reader sees. */
    if ((f = fopen(run->records_file, "r")) != NULL) {
        read_lines(f, c, run->n_records);
        fclose(f);
    }
    *out = c;
    return GB_OK;
}

void gb_lpbm_counters_free(struct gb_lpbm_counters *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        json_decref(c->rec[i]);
    free(c->rec);
    free(c);
}

double gb_lpbm_counters_get(void *ctx, const struct gb_record *r, size_t index,
                            const char *metric)
{
    const struct gb_lpbm_counters *c = ctx;
    (void)r;
    if (!c || index >= c->n || !c->rec[index])
        return NAN;
    json_t *v = json_object_get(c->rec[index], metric);
    if (json_is_object(v))
        v = json_object_get(v, "value");
    return json_is_number(v) ? json_number_value(v) : NAN;
}
