/* lpbm_spec.c - the kernel spec the breakdown model reads, loaded and
 * checked by the spec parser (gpubound/spec.h), and where a run's spec is
 * (gpubound/lpbm_input.h). */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpubound/lpbm_input.h"
#include "lpbm_internal.h"

enum gb_status gb_lpbm_spec_load(const char *path, struct gb_lpbm_spec **out)
{
    enum gb_status st;
    struct gb_lpbm_spec *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    snprintf(s->path, sizeof s->path, "%s", path);
    const char *slash = strrchr(path, '/');
    snprintf(s->dir, sizeof s->dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if ((st = gb_spec_load(path, &s->spec)) != GB_OK) {
        /* A spec that cannot be read or checked is a bad input, not a
         * misuse of the command. */
        char why[1024];
        snprintf(why, sizeof why, "%s", gb_error_message());
        st = gb_error_set(st == GB_ERR_NOMEM ? st : GB_ERR_FORMAT, "%s", why);
        gb_lpbm_spec_free(s);
        return st;
    }
    s->n = (size_t)gb_spec_n_benches(s->spec);
    if (!(s->b = calloc(s->n, sizeof *s->b))) {
        gb_lpbm_spec_free(s);
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < s->n; i++)
        gb_spec_bench_text(s->spec, (int)i, &s->b[i]);
    *out = s;
    return GB_OK;
}

void gb_lpbm_spec_free(struct gb_lpbm_spec *s)
{
    if (s) {
        free(s->b);
        gb_spec_free(s->spec);
    }
    free(s);
}

const char *gb_lpbm_spec_suite(const struct gb_lpbm_spec *s)
{
    return gb_spec_name(s->spec);
}

size_t gb_lpbm_spec_n_benches(const struct gb_lpbm_spec *s)
{
    return s->n;
}

const char *gb_lpbm_spec_bench(const struct gb_lpbm_spec *s, size_t i)
{
    return i < s->n ? s->b[i].name : NULL;
}

/* ---- where the spec is ---- */

static int readable(const char *p)
{
    return access(p, R_OK) == 0;
}

static int from_glob(const char *pattern, char *path, size_t n)
{
    glob_t g;
    int found = 0;
    if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
        snprintf(path, n, "%s", g.gl_pathv[0]);
        found = 1;
    }
    globfree(&g);
    return found;
}

/* The first argument of the command line that ends in ".json". */
static int from_command_line(const struct gb_run *run, char *path, size_t n)
{
    char cl[1024], cand[2 * GB_LPBM_PATH + 64];
    snprintf(cl, sizeof cl, "%s", run->info.command_line);
    for (char *save = NULL, *t = strtok_r(cl, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        size_t len = strlen(t);
        if (len < 6 || strcmp(t + len - 5, ".json") != 0)
            continue;
        if (readable(t)) {
            snprintf(path, n, "%s", t);
            return 1;
        }
        static const char *const ups[] = {"/..", "/../..", "/../../.."};
        for (size_t i = 0; i < 3; i++) {
            snprintf(cand, sizeof cand, "%s%s/%s", run->dir, ups[i], t);
            if (readable(cand)) {
                snprintf(path, n, "%s", cand);
                return 1;
            }
        }
    }
    return 0;
}

enum gb_status gb_lpbm_spec_locate(const struct gb_run *run, const char *override, char *path,
                                   size_t n)
{
    char cand[2 * GB_LPBM_PATH + 64];
    if (override) {
        snprintf(path, n, "%s", override);
        return readable(path) ? GB_OK
                              : gb_error_set(GB_ERR_IO, "cannot read the spec %s", override);
    }
    static const char *const inside[] = {"spec.json", "spec/spec.json"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(cand, sizeof cand, "%s/%s", run->dir, inside[i]);
        if (readable(cand)) {
            snprintf(path, n, "%s", cand);
            return GB_OK;
        }
    }
    snprintf(cand, sizeof cand, "%s/spec/*.json", run->dir);
    if (from_glob(cand, path, n) || from_command_line(run, path, n))
        return GB_OK;
    /* The copy run keeps (spec/<suite>/spec.json): what the run measured,
     * used when the source tree's spec is not where the command line said. */
    snprintf(cand, sizeof cand, "%s/spec/*/spec.json", run->dir);
    if (from_glob(cand, path, n))
        return GB_OK;
    return gb_error_set(GB_ERR_FORMAT, "%s holds no kernel spec (looked for spec.json, spec/*.json, "
                        "a .json on its command line '%s' and spec/*/spec.json)", run->dir,
                        run->info.command_line);
}
