/* plan_hashes.c - the SHA-256 of what a plan compiles and reads, for
 * run.json (gb_plan_hashes, measure.h). */
#include <stdio.h>
#include <string.h>

#include "gpubound/measure.h"
#include "gpubound/spec.h"
#include "util/sha256.h"

/* The embedded kernel source `file`, unless it is in `l` already. */
static enum gb_status gb_hash_kernel(const char *file, struct gb_file_hashes *l)
{
    char hex[GB_SHA256_HEX];
    const char *text = gb_kernel_source(file);
    enum gb_status st;
    if (!text || gb_file_hashes_get(l, file))
        return GB_OK;
    if ((st = gb_sha256_hex(text, strlen(text), hex)) != GB_OK)
        return st;
    return gb_file_hashes_set(l, file, hex);
}

enum gb_status gb_plan_hashes(const struct gb_plan *plan, struct gb_run_info *info)
{
    const struct gb_spec *last = NULL;
    enum gb_status st = GB_OK;
    /* The tool's own kernels, compiled in every run (gpu.c). */
    static const char *const own[] = {"util.cu", "flush_code.cu"};
    for (size_t i = 0; i < sizeof own / sizeof own[0] && st == GB_OK; i++)
        st = gb_hash_kernel(own[i], &info->kernel_sha256);
    /* Items come bench by bench: a spec is hashed when its first item comes. */
    for (size_t i = 0; i < plan->n && st == GB_OK; i++) {
        const struct gb_spec *spec = gb_spec_of_suite(plan->items[i].suite);
        const char *file = plan->items[i].bench->kernel_file;
        if (spec && spec != last) {
            char key[256];
            const char *base = strrchr(gb_spec_file(spec), '/');
            snprintf(key, sizeof key, "%s/%s", gb_spec_name(spec), base ? base + 1 : gb_spec_file(spec));
            if (!gb_file_hashes_get(&info->spec_sha256, key) &&
                (st = gb_spec_hashes(spec, 1, &info->spec_sha256)) == GB_OK)
                st = gb_spec_measured_hash(spec, &info->spec_measured_sha256);
            last = spec;
        } else if (!spec && file) {
            st = gb_hash_kernel(file, &info->kernel_sha256);
        }
    }
    return st;
}
