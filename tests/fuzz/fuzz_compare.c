/* fuzz_compare.c - libFuzzer target: the compare loader and gate. The input
 * is two results.json (BASE, then NEW after a line "@@"), each beside the
 * same valid run.json; both runs are loaded as `gpubound compare` loads
 * them and compared (each side once, then BASE twice against NEW). */
#include "fuzz_split.h"

#include <sys/stat.h>

#include "gpubound/compare.h"
#include "gpubound/results.h"

/* The run.json both sides share: a committed run's (read once). */
static const char *run_json(size_t *n)
{
    static char *text;
    static size_t len;
    if (!text) {
        FILE *f = fopen(GB_SOURCE_DIR "/data/h100/compare-2026-11-23/bw-a/run.json", "rb");
        text = malloc(1 << 20);
        if (!f || !text)
            abort();
        len = fread(text, 1, 1 << 20, f);
        fclose(f);
    }
    *n = len;
    return text;
}

static const char *side(const char *name, const uint8_t *data, size_t size)
{
    static char dirs[2][512];
    char path[600];
    char *dir = dirs[name[0] == 'n'];
    snprintf(dir, sizeof dirs[0], "%s/%s", fuzz_dir(), name);
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/run.json", dir);
    size_t len;
    const char *info = run_json(&len);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(info, 1, len, f) != len || fclose(f) != 0)
        abort();
    snprintf(path, sizeof path, "%s/results.json", dir);
    f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n_base, n_new;
    const uint8_t *rest;
    struct gb_run *base = NULL, *new_ = NULL;
    fuzz_split(data, size, &n_base, &rest, &n_new);
    const char *db = side("base", data, n_base), *dn = side("new", rest, n_new);
    if (gb_run_load(db, &base) == GB_OK && gb_run_load(dn, &new_) == GB_OK) {
        struct gb_cmp_opts o;
        struct gb_cmp_result r;
        const struct gb_run *b[2] = {base, base}, *n[1] = {new_};
        gb_cmp_opts_default(&o);
        if (gb_cmp_runs(b, 1, n, 1, &o, &r) == GB_OK)
            gb_cmp_result_release(&r);
        if (gb_cmp_runs(b, 2, n, 1, &o, &r) == GB_OK)
            gb_cmp_result_release(&r);
    }
    gb_run_free(base);
    gb_run_free(new_);
    return 0;
}
