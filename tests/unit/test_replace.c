/* test_replace.c - the one guard against replacing an output made from
 * more points (util/replace.h): its refusal, its one line, and where it
 * lets the write through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "util/replace.h"

static const struct gb_replace_words words = {"was fitted on", "configurations", "this fit has",
                                              GB_REPLACE_OUT_ELSEWHERE};

static void refuses_fewer_points(void **state)
{
    (void)state;
    gb_error_clear();
    assert_int_equal(gb_replace_check("out/lpbm-model.json", 24, 12, 0, &words), GB_ERR_UNSUPPORTED);
    assert_string_equal(gb_error_message(), "out/lpbm-model.json was fitted on 24 configurations and this "
                                            "fit has 12; it is not replaced (--force replaces it, --out "
                                            "writes elsewhere)");
}

static void lets_through(void **state)
{
    (void)state;
    gb_error_clear();
    assert_int_equal(gb_replace_check("f", 12, 12, 0, &words), GB_OK);  /* as many */
    assert_int_equal(gb_replace_check("f", 3, 12, 0, &words), GB_OK);   /* more now */
    assert_int_equal(gb_replace_check("f", 0, 0, 0, &words), GB_OK);    /* no file before */
    assert_int_equal(gb_replace_check("f", 24, 12, 1, &words), GB_OK);  /* --force */
    assert_string_equal(gb_error_message(), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refuses_fewer_points),
        cmocka_unit_test(lets_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
