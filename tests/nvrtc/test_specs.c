/* Every kernel spec found (examples/<name>/spec.json, corpus/<name>/spec.json
 * and tests/data/specs/<name>/spec.json) compiles with NVRTC for every
 * planned configuration: each distinct set of -D options of its full and
 * quick sweeps for sm_90, the quick ones of the examples and test specs for
 * sm_80 and sm_100 too, with its headers and name expressions, and every name
 * expression lowers to a name. A reference kernel in a source of its own is
 * compiled too.
 * GB_SPECS_SET=corpus compiles only corpus/ (registered as a test of its own,
 * nvrtc/test_specs_corpus, so that the two run side by side), and
 * GB_SPECS_SET=corpus-heldout only corpus-heldout/ (nvrtc/test_specs_heldout),
 * corpus-heldout2 only corpus-heldout2/ (nvrtc/test_specs_heldout2),
 * corpus-heldout3 only corpus-heldout3/ (nvrtc/test_specs_heldout3),
 * corpus-heldout4 only corpus-heldout4/ (nvrtc/test_specs_heldout4),
 * corpus-heldout5 only corpus-heldout5/ (nvrtc/test_specs_heldout5),
 * corpus-heldout6 only corpus-heldout6/ (nvrtc/test_specs_heldout6),
 * corpus-heldout7 only corpus-heldout7/ (nvrtc/test_specs_heldout7),
 * corpus-heldout8 only corpus-heldout8/ (nvrtc/test_specs_heldout8),
 * corpus-heldout9 only corpus-heldout9/ (nvrtc/test_specs_heldout9),
 * corpus-heldout10 only corpus-heldout10/ (nvrtc/test_specs_heldout10),
 * corpus-heldout11 only corpus-heldout11/ (nvrtc/test_specs_heldout11),
 * corpus-heldout12 only corpus-heldout12/ (nvrtc/test_specs_heldout12),
 * corpus-heldout13 only corpus-heldout13/ (nvrtc/test_specs_heldout13),
 * corpus-heldout14 only corpus-heldout14/ (nvrtc/test_specs_heldout14),
 * corpus-heldout15 only corpus-heldout15/ (nvrtc/test_specs_heldout15),
 * corpus-heldout16 only corpus-heldout16/ (nvrtc/test_specs_heldout16),
 * corpus-heldout17 only corpus-heldout17/ (nvrtc/test_specs_heldout17),
 * corpus-heldout18 only corpus-heldout18/ (nvrtc/test_specs_heldout18),
 * corpus-heldout19 only corpus-heldout19/ (nvrtc/test_specs_heldout19),
 * corpus-heldout20 only corpus-heldout20/ (nvrtc/test_specs_heldout20),
 * corpus-heldout21 only corpus-heldout21/ (nvrtc/test_specs_heldout21),
 * corpus-heldout22 only corpus-heldout22/ (nvrtc/test_specs_heldout22),
 * corpus-heldout23 only corpus-heldout23/ (nvrtc/test_specs_heldout23),
 * corpus-heldout24 only corpus-heldout24/ (nvrtc/test_specs_heldout24),
 * corpus-heldout25 only corpus-heldout25/ (nvrtc/test_specs_heldout25),
 * corpus-heldout26 only corpus-heldout26/ (nvrtc/test_specs_heldout26),
 * corpus-heldout27 only corpus-heldout27/ (nvrtc/test_specs_heldout27),
 * corpus-heldout28 only corpus-heldout28/ (nvrtc/test_specs_heldout28); any other
 * value or none, examples/ and tests/data/specs/. GB_SPECS_ONLY=path/spec.json
 * compiles that one spec alone (for work on a spec). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "gpubound/measure.h"
#include "gpubound/spec.h"
#include "suites/spec_internal.h"

#define MAX_KEYS 8192

static char *seen[MAX_KEYS];
static int n_seen, n_compiled, n_specs;

/* Whether this bench and option set was compiled for `arch` already. */
static int once(const char *suite, const char *bench, const char *arch, char opts[][GB_OPT_LEN], int n)
{
    char key[2048];
    size_t len = (size_t)snprintf(key, sizeof key, "%s/%s/%s", suite, bench, arch);
    for (int i = 0; i < n && len < sizeof key; i++)
        len += (size_t)snprintf(key + len, sizeof key - len, " %s", opts[i]);
    for (int i = 0; i < n_seen; i++)
        if (strcmp(seen[i], key) == 0)
            return 0;
    assert_true(n_seen < MAX_KEYS);
    seen[n_seen++] = strdup(key);
    return 1;
}

static void compile_point(const struct gb_suite *suite, const struct gb_plan_item *it, const char *arch)
{
    const struct gb_bench *row = it->bench;
    const struct gb_spec_bench *b = row->ctx;
    char opts[16][GB_OPT_LEN], exprs[4][GB_KERNEL_NAME_LEN];
    const char *optp[16];
    struct gb_point p;
    struct gb_nvrtc_program prog;
    char *cubin = NULL, **lowered = NULL;
    size_t size = 0;
    gb_plan_point(it, 0, &p);
    if (gb_spec_check_point(&p) != GB_OK)
        fail_msg("%s", gb_error_message());
    int n = row->kernel_opts(&p, row->ctx, opts, 16);
    for (int i = 0; i < n; i++)
        optp[i] = opts[i];
    if (once(suite->name, row->name, arch, opts, n)) {
        memset(&prog, 0, sizeof prog);
        assert_int_equal(row->kernel_program(row->ctx, optp, n, &prog, exprs, 4), GB_OK);
        if (gb_nvrtc_compile_program(&prog, arch, optp, n, &cubin, &size, &lowered, NULL) != GB_OK)
            fail_msg("%s (%s/%s, %s): %s", gb_spec_file(b->spec), suite->name, row->name, arch, gb_error_message());
        assert_true(size > 0);
        for (int i = 0; i < prog.n_exprs; i++) {
            assert_non_null(lowered[i]);
            assert_true(lowered[i][0] != '\0');
            free(lowered[i]);
        }
        free(lowered);
        free(cubin);
        n_compiled++;
    }
    gb_point_release(&p);
}

/* The reference kernel of a bench whose reference has a source or defines of its own. */
static void compile_reference(const struct gb_suite *suite, const struct gb_plan_item *it, const char *arch)
{
    const struct gb_spec_bench *b = it->bench->ctx;
    const struct gb_spec *spec = b->spec;
    struct gb_spec_values pv;
    struct gb_point p;
    char opts[GB_SPEC_MAX_NAMES][GB_OPT_LEN], exprs[1][GB_KERNEL_NAME_LEN];
    const char *optp[GB_SPEC_MAX_NAMES], *hn[GB_SPEC_MAX_SOURCES], *hs[GB_SPEC_MAX_SOURCES];
    char *cubin = NULL, **lowered = NULL;
    size_t size = 0;
    int nh = 0;
    if (b->ref_kind != GB_SR_KERNEL || gb_spec_ref_shared(b))
        return;
    gb_plan_point(it, 0, &p);
    assert_int_equal(gb_spec_point_values(b, &p, &pv), GB_OK);
    int n = gb_spec_opts(b, &pv, 1, opts, GB_SPEC_MAX_NAMES);
    for (int i = 0; i < n; i++)
        optp[i] = opts[i];
    if (once(suite->name, "(reference)", arch, opts, n)) {
        for (int i = 0; i < spec->n_sources; i++)
            if (i != b->ref.source) {
                hn[nh] = spec->sources[i].name;
                hs[nh++] = spec->sources[i].text;
            }
        snprintf(exprs[0], sizeof exprs[0], "%s", pv.ref_kernel);
        struct gb_nvrtc_program prog = {.name = spec->sources[b->ref.source].name,
                                        .source = spec->sources[b->ref.source].text, .n_headers = nh,
                                        .header_names = hn, .header_sources = hs, .n_exprs = 1,
                                        .exprs = (const char (*)[GB_KERNEL_NAME_LEN])exprs};
        if (gb_nvrtc_compile_program(&prog, arch, optp, n, &cubin, &size, &lowered, NULL) != GB_OK)
            fail_msg("%s reference (%s): %s", spec->file, arch, gb_error_message());
        free(lowered[0]);
        free(lowered);
        free(cubin);
        n_compiled++;
    }
    gb_point_release(&p);
}

static void compile_spec(const char *path, int n_archs)
{
    static const char *const archs[] = {"sm_90", "sm_80", "sm_100"};
    char *sel = NULL;
    if (gb_spec_register_path(path, &sel) != GB_OK)
        fail_msg("%s", gb_error_message());
    n_specs++;
    for (int quick = 0; quick < 2; quick++) {
        struct gb_plan plan;
        const char *s[] = {sel};
        if (gb_plan_build(s, 1, NULL, 0, quick, &plan) != GB_OK)
            fail_msg("%s: %s", path, gb_error_message());
        for (int a = 0; a < (quick ? n_archs : 1); a++)
            for (size_t i = 0; i < plan.n; i++) {
                compile_point(plan.items[i].suite, &plan.items[i], archs[a]);
                compile_reference(plan.items[i].suite, &plan.items[i], archs[a]);
            }
        gb_plan_release(&plan);
    }
    free(sel);
}

/* Every <root>/<name>/spec.json, in name order. */
static void compile_under(const char *root, int n_archs)
{
    struct dirent **names = NULL;
    int n = scandir(root, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        char path[1024];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s/spec.json", root, names[i]->d_name);
        if (names[i]->d_name[0] != '.' && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
            printf("spec %s\n", path);
            compile_spec(path, n_archs);
        }
        free(names[i]);
    }
    free(names);
}

/* The held-out sets (corpus-heldout/README.md, corpus-heldout2/README.md,
 * corpus-heldout3/README.md, corpus-heldout4/README.md,
 * corpus-heldout5/README.md, corpus-heldout6/README.md, corpus-heldout7/README.md,
 * corpus-heldout8/README.md, corpus-heldout9/README.md,
 * corpus-heldout10/README.md, corpus-heldout11/README.md,
 * corpus-heldout12/README.md, corpus-heldout13/README.md,
 * corpus-heldout14/README.md, corpus-heldout15/README.md,
 * corpus-heldout16/README.md, corpus-heldout17/README.md,
 * corpus-heldout18/README.md, corpus-heldout19/README.md,
 * corpus-heldout20/README.md, corpus-heldout21/README.md,
 * corpus-heldout22/README.md, corpus-heldout23/README.md,
 * corpus-heldout24/README.md, corpus-heldout25/README.md,
 * corpus-heldout26/README.md, corpus-heldout27/README.md,
 * corpus-heldout28/README.md), compiled for sm_90
 * as the corpus: their kernels, and the fewest configurations each has. */
static const struct {
    const char *dir;
    int specs, per_spec;
} held_sets[] = {{"corpus-heldout", 5, 16}, {"corpus-heldout2", 3, 18}, {"corpus-heldout3", 3, 24},
                {"corpus-heldout4", 3, 24}, {"corpus-heldout5", 3, 24}, {"corpus-heldout6", 3, 24},
                {"corpus-heldout7", 3, 24}, {"corpus-heldout8", 3, 24},
                {"corpus-heldout9", 3, 24}, {"corpus-heldout10", 3, 24},
                {"corpus-heldout11", 3, 24}, {"corpus-heldout12", 3, 24},
                {"corpus-heldout13", 3, 24}, {"corpus-heldout14", 3, 24},
                {"corpus-heldout15", 3, 24}, {"corpus-heldout16", 3, 24},
                {"corpus-heldout17", 3, 24}, {"corpus-heldout18", 3, 24},
                {"corpus-heldout19", 3, 24}, {"corpus-heldout20", 3, 24},
                {"corpus-heldout21", 3, 24}, {"corpus-heldout22", 3, 24},
                {"corpus-heldout23", 3, 24}, {"corpus-heldout24", 3, 24},
                {"corpus-heldout25", 3, 24}, {"corpus-heldout26", 3, 24},
                {"corpus-heldout27", 3, 24}, {"corpus-heldout28", 3, 24}};

static int held_set(const char *set)
{
    for (size_t h = 0; h < sizeof held_sets / sizeof held_sets[0]; h++)
        if (strcmp(set, held_sets[h].dir) == 0)
            return (int)h;
    return -1;
}

static void test_every_spec(void **state)
{
    (void)state;
    int h;
    /* The source tree, from this file's own path (.../tests/nvrtc/test_specs.c). */
    char root[1024], dir[1100];
    snprintf(root, sizeof root, "%s", __FILE__);
    char *cut = strstr(root, "/tests/nvrtc/");
    assert_non_null(cut);
    *cut = '\0';
    const char *only = getenv("GB_SPECS_ONLY"), *set = getenv("GB_SPECS_SET");
    if (only && *only) {
        compile_spec(only, 1);
        printf("%d spec(s), %d compilation(s)\n", n_specs, n_compiled);
        assert_true(n_compiled > 0);
    } else if (set && strcmp(set, "corpus") == 0) {
        /* The corpus: sm_90, the GPUs it is recorded on (corpus/README.md). */
        snprintf(dir, sizeof dir, "%s/corpus", root);
        compile_under(dir, 1);
        printf("%d corpus spec(s), %d compilation(s)\n", n_specs, n_compiled);
        /* Its sixteen kernel directories, each at least two problem sizes. */
        assert_true(n_specs >= 16);
        assert_true(n_compiled >= 2 * n_specs);
    } else if (set && (h = held_set(set)) >= 0) {
        snprintf(dir, sizeof dir, "%s/%s", root, held_sets[h].dir);
        compile_under(dir, 1);
        printf("%d held-out spec(s), %d compilation(s)\n", n_specs, n_compiled);
        assert_int_equal(n_specs, held_sets[h].specs);
        assert_true(n_compiled >= held_sets[h].per_spec * n_specs);
    } else {
        snprintf(dir, sizeof dir, "%s/examples", root);
        compile_under(dir, 3);
        snprintf(dir, sizeof dir, "%s/tests/data/specs", root);
        compile_under(dir, 3);
        printf("%d spec(s), %d compilation(s)\n", n_specs, n_compiled);
        /* At least the test specs: saxpy, reduce (a template and a header), wrong. */
        assert_true(n_specs >= 3);
        assert_true(n_compiled > 0);
    }
    gb_suites_release();
    for (int i = 0; i < n_seen; i++)
        free(seen[i]);
}

/* A template's name expression lowers to its mangled name, which differs
 * from the expression; an extern "C" name lowers to itself. */
static void test_lowered_names(void **state)
{
    (void)state;
    static const char src[] = "template <int B> __global__ void t(int *p) { p[0] = B; }\n"
                              "extern \"C\" __global__ void c(int *p) { p[0] = 1; }\n";
    char exprs[2][GB_KERNEL_NAME_LEN] = {"t<64>", "c"};
    struct gb_nvrtc_program prog = {.name = "t.cu", .source = src, .n_exprs = 2,
                                    .exprs = (const char (*)[GB_KERNEL_NAME_LEN])exprs};
    char *cubin = NULL, **lowered = NULL;
    size_t size = 0;
    if (gb_nvrtc_compile_program(&prog, "sm_90", NULL, 0, &cubin, &size, &lowered, NULL) != GB_OK)
        fail_msg("%s", gb_error_message());
    assert_string_equal(lowered[0], "_Z1tILi64EEvPi");
    assert_string_equal(lowered[1], "c");
    free(lowered[0]);
    free(lowered[1]);
    free(lowered);
    free(cubin);
    /* A name expression that names nothing is a compile error naming it. */
    char bad[1][GB_KERNEL_NAME_LEN] = {"nothere<3>"};
    prog.n_exprs = 1;
    prog.exprs = (const char (*)[GB_KERNEL_NAME_LEN])bad;
    assert_int_equal(gb_nvrtc_compile_program(&prog, "sm_90", NULL, 0, &cubin, &size, &lowered, NULL), GB_ERR_COMPILE);
    assert_non_null(strstr(gb_error_message(), "nothere"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lowered_names),
        cmocka_unit_test(test_every_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
