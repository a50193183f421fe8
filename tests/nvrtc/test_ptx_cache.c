/* gb_module_ptx (src/gpu/gpu_module.c) with NVRTC and no GPU: a kernel's
 * PTX is compiled once into the disk cache and read back from it after
 * (the cached file is what comes back, not a recompile); other defines are
 * another entry; a template's lowered entry name is kept beside its PTX
 * and a PTX without it is compiled again; a cache that cannot be written
 * still gives the PTX. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpubound/gpu.h"

static const char src[] = "template <int N> __global__ void k(float *o)\n"
                          "{\n"
                          "    o[threadIdx.x] = V * N * o[threadIdx.x + 1];\n"
                          "}\n"
                          "extern \"C\" __global__ void plain(float *o) { o[threadIdx.x] = V; }\n";
static const char marker[] = "// the cached file\n";
static const char exprs[1][GB_KERNEL_NAME_LEN] = {"k<3>"};

static char dir[64];

static void drop_cache(void)
{
    char cmd[128];
    if (dir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        assert_int_equal(system(cmd), 0);
    }
    dir[0] = '\0';
}

static void fresh_cache(void)
{
    drop_cache();
    snprintf(dir, sizeof dir, "/tmp/gb-ptx-XXXXXX");
    assert_non_null(mkdtemp(dir));
    setenv("GPUBOUND_CACHE_DIR", dir, 1);
}

/* The path of the one file in the cache directory ending in `suffix`. */
static void cached(const char *suffix, char *path, size_t n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    assert_non_null(d);
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (len > sl && strcmp(e->d_name + len - sl, suffix) == 0) {
            snprintf(path, n, "%s/%s", dir, e->d_name);
            found++;
        }
    }
    closedir(d);
    assert_int_equal(found, 1);
}

static void overwrite(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *ptx_of(int n_exprs, const char *define, char *entry, size_t n_entry)
{
    const char *opts[] = {define};
    struct gb_nvrtc_program x = {.name = "ptxcache.cu", .source = src, .n_exprs = n_exprs, .exprs = exprs};
    char *ptx = NULL;
    assert_int_equal(gb_module_ptx("sm_90", &x, opts, 1, &ptx, entry, n_entry), GB_OK);
    assert_non_null(ptx);
    return ptx;
}

static void test_read_back_from_the_cache(void **state)
{
    (void)state;
    char path[256], entry[GB_KERNEL_NAME_LEN];
    fresh_cache();
    char *ptx = ptx_of(0, "-DV=2", entry, sizeof entry);
    assert_non_null(strstr(ptx, ".entry plain"));
    assert_string_equal(entry, "");
    free(ptx);
    cached("-compute_90.ptx", path, sizeof path);
    overwrite(path, marker);
    ptx = ptx_of(0, "-DV=2", entry, sizeof entry);
    assert_string_equal(ptx, marker); /* read, not compiled */
    free(ptx);
    ptx = ptx_of(0, "-DV=5", NULL, 0); /* another define: compiled */
    assert_non_null(strstr(ptx, ".entry plain"));
    free(ptx);
}

static void test_entry_name_kept_beside(void **state)
{
    (void)state;
    char path[256], entry[GB_KERNEL_NAME_LEN] = "", again[GB_KERNEL_NAME_LEN] = "";
    fresh_cache();
    free(ptx_of(1, "-DV=2", entry, sizeof entry));
    assert_non_null(strstr(entry, "_Z"));
    cached("-compute_90.ptx", path, sizeof path);
    overwrite(path, marker);
    char *ptx = ptx_of(1, "-DV=2", again, sizeof again);
    assert_string_equal(ptx, marker);
    assert_string_equal(again, entry);
    free(ptx);
    /* Without its entry's name the cached PTX is not used. */
    cached("-compute_90.entry", path, sizeof path);
    assert_int_equal(unlink(path), 0);
    ptx = ptx_of(1, "-DV=2", again, sizeof again);
    assert_non_null(strstr(ptx, entry));
    assert_string_equal(again, entry);
    free(ptx);
}

static void test_unwritable_cache_still_compiles(void **state)
{
    (void)state;
    char entry[GB_KERNEL_NAME_LEN];
    drop_cache();
    setenv("GPUBOUND_CACHE_DIR", "/proc/gpubound-no-such-dir", 1);
    char *ptx = ptx_of(1, "-DV=7", entry, sizeof entry);
    assert_non_null(strstr(ptx, entry));
    free(ptx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_back_from_the_cache),
        cmocka_unit_test(test_entry_name_kept_beside),
        cmocka_unit_test(test_unwritable_cache_still_compiles),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    drop_cache();
    return failed;
}
