/* The cold mode's flush methods: every name parses back to its method, an
 * unknown name is refused, the default is `empty`, and the kernels its
 * steps launch are in the sources gpubound carries (the discard in util.cu,
 * the code run in a module of its own). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/gpu.h"
#include "gpubound/measure.h"

static void names_round_trip(void **state)
{
    (void)state;
    const enum gb_flush_method all[] = {GB_FLUSH_READ, GB_FLUSH_WRITE, GB_FLUSH_WRITE_READ, GB_FLUSH_READ_LAST,
                                        GB_FLUSH_EMPTY};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const char *name = gb_flush_method_name(all[i]);
        assert_string_not_equal(name, "?");
        assert_int_equal(gb_flush_method_parse(name), all[i]);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(name, gb_flush_method_name(all[j]));
    }
    assert_string_equal(gb_flush_method_name(GB_FLUSH_EMPTY), "empty");
    assert_string_equal(gb_flush_method_name((enum gb_flush_method)99), "?");
}

static void unknown_refused(void **state)
{
    (void)state;
    assert_int_equal(gb_flush_method_parse("none"), -1);
    assert_int_equal(gb_flush_method_parse(""), -1);
    assert_int_equal(gb_flush_method_parse("Empty"), -1);
    assert_int_equal(gb_flush_method_parse("read-last "), -1);
}

static void default_is_empty(void **state)
{
    (void)state;
    struct gb_measure_opts o;
    gb_measure_opts_default(&o);
    assert_int_equal(o.flush, GB_FLUSH_EMPTY);
}

static void kernels_carried(void **state)
{
    (void)state;
    const char *util = gb_kernel_source("util.cu"), *code = gb_kernel_source("flush_code.cu");
    assert_non_null(util);
    assert_non_null(code);
    assert_non_null(strstr(util, "gb_flush_discard"));
    assert_non_null(strstr(util, "discard.global.L2"));
    assert_non_null(strstr(code, "gb_flush_code"));
    /* Its own module, not util.cu's: compiled only when a cold sample needs it. */
    assert_null(strstr(util, "gb_flush_code"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(unknown_refused),
        cmocka_unit_test(default_is_empty),
        cmocka_unit_test(kernels_carried),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
