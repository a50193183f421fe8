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

enum gb_status gb_lpbm_spec_check(const struct gb_run *run, const struct gb_lpbm_spec *s, int *unchecked)
{
    const struct gb_run_info *in = &run->info;
    struct gb_file_hashes *read = calloc(2, sizeof *read), *measured = read + 1;
    enum gb_status st = read ? GB_OK : gb_error_set(GB_ERR_NOMEM, "out of memory");
    /* A run recorded before run.json kept digests has none of any kind. */
    *unchecked = in->spec_sha256.n == 0 && in->kernel_sha256.n == 0;
    if (st != GB_OK || *unchecked || (st = gb_spec_hashes(s->spec, 0, read)) != GB_OK ||
        (st = gb_spec_measured_hash(s->spec, measured)) != GB_OK)
        goto out;
    for (int i = 0; i < read->n && st == GB_OK; i++) {
        const struct gb_file_hash *h = &read->h[i];
        const char *was = gb_file_hashes_get(&in->spec_sha256, h->name);
        const char *was_measured = i ? NULL : gb_file_hashes_get(&in->spec_measured_sha256, h->name);
        char file[2 * GB_LPBM_PATH];
        /* The spec file (first) may differ in what only models read. */
        if ((was && strcmp(was, h->sha256) == 0) ||
            (was_measured && strcmp(was_measured, measured->h[0].sha256) == 0))
            continue;
        /* The spec file comes first; its sources are named from its directory. */
        snprintf(file, sizeof file, "%s%s%s", i ? s->dir : s->path, i ? "/" : "",
                 i ? h->name + strlen(gb_spec_name(s->spec)) + 1 : "");
        st = was ? gb_error_set(GB_ERR_FORMAT, "%s is not the file the run measured (SHA-256 %.12s, %s/run.json "
                                "records %.12s for %s); restore it, or run the changed spec again to model it",
                                file, h->sha256, run->dir, was, h->name)
                 : gb_error_set(GB_ERR_FORMAT, "%s (SHA-256 %.12s) is not a file of a spec the run measured "
                                "(%s/run.json records no %s); give the spec the run measured with --spec, or run "
                                "this one to model it", file, h->sha256, run->dir, h->name);
    }
out:
    free(read);
    return st;
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

/* The copy a run keeps of its spec, spec/<suite>/<the spec's name>: by the
 * names of run.json's "spec" (the paths as given, ", " between them),
 * else spec.json. */
static int from_kept_copy(const struct gb_run *run, char *path, size_t n)
{
    char specs[1024], cand[2 * GB_LPBM_PATH + 64];
    snprintf(specs, sizeof specs, "%s", run->info.spec);
    for (char *save = NULL, *t = strtok_r(specs, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        const char *base = strrchr(t, '/');
        snprintf(cand, sizeof cand, "%s/spec/*/%s", run->dir, base ? base + 1 : t);
        if (from_glob(cand, path, n))
            return 1;
    }
    snprintf(cand, sizeof cand, "%s/spec/*/spec.json", run->dir);
    return from_glob(cand, path, n);
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
    /* The copy run keeps (spec/<suite>/, under the spec's own name): what
     * the run measured, before the command line's path, which is relative
     * to wherever the run was started and may name another file now. */
    if (from_glob(cand, path, n) || from_kept_copy(run, path, n) || from_command_line(run, path, n))
        return GB_OK;
    return gb_error_set(GB_ERR_FORMAT, "%s holds no kernel spec (looked for spec.json, spec/*.json, "
                        "spec/*/spec.json and a .json on its command line '%s')", run->dir,
                        run->info.command_line);
}
