/* The PTX that NVRTC emits for every benchmark of suite `throughput` holds
 * the instruction its row names (at least once per step of the unrolled
 * loop body) and none of the forms it must not use (the precise functions
 * never the approximate instruction), for sm_80, sm_90 and sm_100.
 *
 * With arguments, `--dump DIR ARCH` writes the cubin of every benchmark for
 * ARCH into DIR, compiled exactly as gpubound compiles it, and DIR/expect.tsv
 * with the SASS each must hold; tests/device/throughput_sass.sh disassembles
 * them on a machine with the CUDA binary utilities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/gpu.h"
#include "suites/throughput.h"

static int tok_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* Tokens of `text` that are `name` or start with "name." */
static int count_insn(const char *text, const char *name, size_t len)
{
    int n = 0;
    for (const char *p = text; *p;) {
        if (!tok_char(*p)) {
            p++;
            continue;
        }
        const char *q = p;
        while (tok_char(*q))
            q++;
        if ((size_t)(q - p) >= len && strncmp(p, name, len) == 0 && ((size_t)(q - p) == len || p[len] == '.'))
            n++;
        p = q;
    }
    return n;
}

/* Checks a comma list: the first at least `body` times, the others at least
 * once (want = 1), or none of them at all (want = 0). */
static void check_list(const char *what, const char *text, const char *list, int body, int want)
{
    if (!list)
        return;
    const char *p = list;
    for (int first = 1; *p; first = 0) {
        size_t len = strcspn(p, ",");
        int n = count_insn(text, p, len);
        if (want && n < (first ? body : 1))
            fail_msg("%s: '%.*s' occurs %d times, expected at least %d", what, (int)len, p, n, first ? body : 1);
        if (!want && n)
            fail_msg("%s: '%.*s' occurs %d times, expected none", what, (int)len, p, n);
        p += len;
        if (*p == ',')
            p++;
    }
}

static const char *const archs[] = {"sm_80", "sm_90", "sm_100"};

static void mem_opts(const struct gb_tp_mem *m, char o[2][GB_OPT_LEN])
{
    snprintf(o[0], GB_OPT_LEN, "-DTP_KERNEL=%d", m->kernel);
    snprintf(o[1], GB_OPT_LEN, "-DUNROLL=%d", m->unroll);
}

static void test_arith_ptx(void **state)
{
    (void)state;
    const char *src = gb_kernel_source("throughput.cu");
    assert_non_null(src);
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < gb_tp_n_ops; i++)
            for (int lat = 0; lat < 2; lat++) {
                const struct gb_tp_op *op = &gb_tp_ops[i];
                char o[8][GB_OPT_LEN], what[128], *ptx = NULL;
                const char *optp[8];
                int n = gb_tp_arith_opts(op, lat, o, 8);
                for (int k = 0; k < n; k++)
                    optp[k] = o[k];
                if (gb_nvrtc_compile_ptx("throughput.cu", src, archs[a], optp, n, &ptx) != GB_OK)
                    fail_msg("%s %s: %s", op->name, archs[a], gb_error_message());
                snprintf(what, sizeof what, "op %s (%s) for %s", op->name, lat ? "lat" : "tput", archs[a]);
                check_list(what, ptx, op->ptx, (lat ? 1 : op->chains) * op->unroll, 1);
                check_list(what, ptx, op->ptx_not, 0, 0);
                free(ptx);
            }
}

static void test_memory_ptx(void **state)
{
    (void)state;
    const char *src = gb_kernel_source("throughput.cu");
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < gb_tp_n_mems; i++) {
            char o[2][GB_OPT_LEN], what[128], *ptx = NULL;
            const char *optp[2] = {o[0], o[1]};
            mem_opts(&gb_tp_mems[i], o);
            if (gb_nvrtc_compile_ptx("throughput.cu", src, archs[a], optp, 2, &ptx) != GB_OK)
                fail_msg("%s %s: %s", gb_tp_mems[i].bench, archs[a], gb_error_message());
            snprintf(what, sizeof what, "%s for %s", gb_tp_mems[i].bench, archs[a]);
            check_list(what, ptx, gb_tp_mems[i].ptx, gb_tp_mems[i].unroll, 1);
            free(ptx);
        }
}

/* The checker itself: a missing instruction and a forbidden one are caught. */
static void test_checker(void **state)
{
    (void)state;
    const char *text = "\tfma.rn.f32 \t%f1, %f2;\n\tex2.approx.ftz.f32 %f3, %f4;\n\tmul.f32 %f5;\n";
    assert_int_equal(count_insn(text, "fma.rn.f32", 10), 1);
    assert_int_equal(count_insn(text, "ex2.approx.f32", 14), 0);
    assert_int_equal(count_insn(text, "ex2.approx", 10), 1);
    assert_int_equal(count_insn(text, "mul.f32", 7), 1);
    assert_int_equal(count_insn(text, "mul", 3), 1);
    assert_int_equal(count_insn("IMAD.HI.U32 R1; IMAD R2; IMADX R3", "IMAD", 4), 2);
}

/* Every op has a documented row that exists, every op is an axis value. */
static void test_data(void **state)
{
    (void)state;
    for (int i = 0; i < gb_tp_n_ops; i++) {
        const struct gb_tp_op *op = &gb_tp_ops[i];
        assert_ptr_equal(gb_tp_op_find(op->name), op);
        if (op->doc_row) {
            int found = 0;
            for (int r = 0; r < gb_tp_n_doc_rows; r++)
                found |= strcmp(gb_tp_doc_rows[r].key, op->doc_row) == 0;
            if (!found)
                fail_msg("op %s names documented row '%s', which the table lacks", op->name, op->doc_row);
            assert_true(gb_tp_doc_rate(op, 9, 0) > 0);
        }
        assert_true(op->chains >= 1 && op->chains <= 8 && op->unroll >= 1);
        assert_true(op->check == GB_TP_EXACT || (op->lip > 0 && op->lip < 1 && op->eps > 0));
    }
    assert_int_equal(gb_tp_doc_rate(gb_tp_op_find("ffma"), 9, 0), 128);
    assert_int_equal(gb_tp_doc_rate(gb_tp_op_find("ffma"), 8, 0), 64);
    assert_int_equal(gb_tp_doc_rate(gb_tp_op_find("dfma"), 7, 5), 2);
    assert_int_equal(gb_tp_doc_rate(gb_tp_op_find("ffma"), 6, 1), 0);
    assert_int_equal(gb_tp_doc_rate(gb_tp_op_find("fdiv"), 9, 0), 0);
}

static int dump(const char *dir, const char *arch)
{
    const char *src = gb_kernel_source("throughput.cu");
    char path[4096];
    snprintf(path, sizeof path, "%s/expect.tsv", dir);
    FILE *ex = fopen(path, "w");
    if (!ex || !src) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    fprintf(ex, "# cubin\tmin count of the first\tSASS (first at least min count times, others once)\tmust not occur\n");
    int n_items = gb_tp_n_ops * 2 + gb_tp_n_mems;
    for (int i = 0; i < n_items; i++) {
        char o[8][GB_OPT_LEN], name[128], *cubin = NULL;
        const char *optp[8], *sass, *sass_not = NULL;
        int n, body;
        size_t size = 0;
        if (i < gb_tp_n_ops * 2) {
            const struct gb_tp_op *op = &gb_tp_ops[i / 2];
            int lat = i % 2;
            n = gb_tp_arith_opts(op, lat, o, 8);
            snprintf(name, sizeof name, "arith-%s-%s.cubin", op->name, lat ? "lat" : "tput");
            body = (lat ? 1 : op->chains) * op->unroll;
            sass = op->sass;
            sass_not = op->sass_not;
        } else {
            const struct gb_tp_mem *m = &gb_tp_mems[i - gb_tp_n_ops * 2];
            mem_opts(m, o);
            n = 2;
            snprintf(name, sizeof name, "%s.cubin", m->bench);
            body = m->unroll;
            sass = m->sass;
        }
        for (int k = 0; k < n; k++)
            optp[k] = o[k];
        if (gb_nvrtc_compile("throughput.cu", src, arch, optp, n, &cubin, &size) != GB_OK) {
            fprintf(stderr, "%s: %s\n", name, gb_error_message());
            fclose(ex);
            return 1;
        }
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(cubin, 1, size, f) != size || fclose(f) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            free(cubin);
            fclose(ex);
            return 1;
        }
        free(cubin);
        fprintf(ex, "%s\t%d\t%s\t%s\n", name, body, sass, sass_not ? sass_not : "-");
    }
    return fclose(ex) != 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--dump") == 0)
        return dump(argv[2], argv[3]);
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--dump DIR ARCH]\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker),
        cmocka_unit_test(test_data),
        cmocka_unit_test(test_arith_ptx),
        cmocka_unit_test(test_memory_ptx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
