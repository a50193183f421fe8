/* camp_from_point.c - `camp predict --from-point RUN:BENCH:AXES`: parses
 * the point's name, loads its run, and asks the model's point adapter
 * (src/models/campprof/camp_point.c) for the one record it names as an
 * Nsight Compute launch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_camp.h"
#include "gpubound/camp_inflight.h"
#include "gpubound/campprof.h"
#include "gpubound/ncu.h"
#include "gpubound/results.h"

/* The point's bytes in flight per thread, from its kernel's PTX; NaN with
 * a note where they cannot be read, and without one for a point of a run
 * with no kernel spec (the camping suite's own: its shape is the suite's). */
static double point_inflight(const struct gb_run *run, const struct gb_record *r)
{
    struct gb_camp_obs o;
    double bytes = NAN;
    int from_counters;
    if (!camp_cli_run_of_spec(run))
        return NAN;
    enum gb_status st = gb_camp_spec_obs(r, &o, &from_counters);
    if (st == GB_OK)
        st = gb_camp_point_inflight(run, r, &o.counts, &bytes);
    if (st == GB_ERR_UNSUPPORTED)   /* its global atomics */
        fprintf(stderr, "note: the application line takes the camping suite's knee: %s\n", gb_error_message());
    else if (st != GB_OK)
        fprintf(stderr, "note: the point's loads in flight could not be read (%s): the application line "
                        "takes the camping suite's knee\n", gb_error_message());
    return bytes;
}

int camp_cli_point_report(const char *spec, struct gb_ncu_report **out, int *hot, double *inflight)
{
    char run_dir[4096], bench[160];
    const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    struct gb_run *run = NULL;
    const struct gb_record *hit = NULL;
    size_t n_hits = 0;
    int rc = GB_EXIT_OK;
    enum gb_status st;
    *out = NULL;
    *hot = 0;
    if (!c1 || (size_t)(c1 - spec) >= sizeof run_dir || (c2 && (size_t)(c2 - c1) > sizeof bench))
        return gb_cli_usage("camp", "predict: --from-point needs RUN:SUITE/BENCH[:AXIS=V,...], not '%s'", spec);
    snprintf(run_dir, sizeof run_dir, "%.*s", (int)(c1 - spec), spec);
    snprintf(bench, sizeof bench, "%.*s", (int)(c2 ? c2 - c1 - 1 : (long)strlen(c1 + 1)), c1 + 1);
    if (gb_cli_load_run(run_dir, &run) != GB_OK)
        return gb_cli_fail(GB_ERR_FORMAT, "camp predict --from-point", "give a run directory recorded with 'run --counters'");
    gb_camp_point_find(run, bench, c2 ? c2 + 1 : "", &hit, &n_hits);
    if (n_hits != 1)
        rc = gb_cli_usage("camp", "predict: --from-point %s names %zu records of %s; give the axes that "
                          "pick one (AXIS=V,...)", spec, n_hits, run_dir);
    else if ((st = gb_camp_point_report(hit, out)) == GB_ERR_FORMAT)
        rc = gb_cli_fail(gb_error_set(st, "%s: %s", spec, gb_error_message()), "camp predict --from-point",
                         "record it with 'gpubound run ... --counters'");
    else if (st != GB_OK)
        rc = gb_cli_fail(st, "camp predict", NULL);
    else {
        *hot = hit->cache == GB_CACHE_HOT;
        if (inflight)
            *inflight = point_inflight(run, hit);
    }
    if (rc != GB_EXIT_OK) {
        gb_ncu_free(*out);
        *out = NULL;
    }
    gb_run_free(run);
    return rc;
}
