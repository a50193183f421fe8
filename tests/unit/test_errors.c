/* test_errors.c - the one-line error message of gb_error_set (status.c):
 * control characters escaped, a long message shortened in its middle so
 * that its reason (at its end) stays, UTF-8 characters never split, and
 * the current message usable as an argument; the same escapes for every
 * line the CLI prints (gb_text_escape) and for a run's warnings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "gpubound/results.h"
#include "gpubound/status.h"
#include "util/text.h"

static void test_escapes(void **state)
{
    (void)state;
    assert_int_equal(gb_error_set(GB_ERR_USAGE, "value \"%s\": bad", "a\nb\tc\r\x01"), GB_ERR_USAGE);
    assert_string_equal(gb_error_message(), "value \"a\\nb\\tc\\r\\x01\": bad");
    gb_error_set(GB_ERR_IO, "plain µs");
    assert_string_equal(gb_error_message(), "plain µs");
}

static void test_long_keeps_reason(void **state)
{
    (void)state;
    size_t n = 30000;
    char *v = malloc(n + 1);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++)
        v[i] = i % 3 == 2 ? '\n' : (char)('a' + i % 26);
    v[n] = '\0';
    gb_error_set(GB_ERR_USAGE, "spec.json: grid[0]: \"%s\": unknown name \"bsx\"", v);
    const char *m = gb_error_message();
    size_t len = strlen(m);
    assert_true(len < 8192);
    assert_true(len > 7000); /* the room is used, not thrown away */
    assert_non_null(strstr(m, "bytes left out ...]"));
    assert_int_equal(strncmp(m, "spec.json: grid[0]: \"ab\\nde", 27), 0);
    assert_string_equal(m + len - 21, "\": unknown name \"bsx\"");
    assert_non_null(strstr(m + len - 40, "unknown name \"bsx\""));
    assert_null(strchr(m, '\n'));
    free(v);
}

/* A cut falls between UTF-8 characters: no stray continuation byte. */
static void test_utf8_not_split(void **state)
{
    (void)state;
    size_t n = 20000;
    char *v = malloc(2 * n + 1);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++)
        v[2 * i] = (char)0xc2, v[2 * i + 1] = (char)0xb5; /* µ */
    v[2 * n] = '\0';
    gb_error_set(GB_ERR_USAGE, "x%s: why", v);
    const unsigned char *m = (const unsigned char *)gb_error_message();
    for (size_t i = 0; m[i]; i++) {
        if (m[i] == 0xc2)
            assert_int_equal(m[i + 1], 0xb5);
        if (m[i] == 0xb5)
            assert_true(i > 0 && m[i - 1] == 0xc2);
    }
    free(v);
}

static void test_message_as_argument(void **state)
{
    (void)state;
    gb_error_set(GB_ERR_IO, "inner reason");
    gb_error_set(GB_ERR_IO, "outer: %s", gb_error_message());
    assert_string_equal(gb_error_message(), "outer: inner reason");
}

/* The one helper every printed line goes through (util/text.h): escapes,
 * and a cut that never splits a UTF-8 character or an escape. */
static void test_text_escape(void **state)
{
    char out[16];
    (void)state;
    gb_text_escape(out, sizeof out, "a\nb\x7f");
    assert_string_equal(out, "a\\nb\\x7f");
    gb_text_escape(out, 8, "abcdef\n");
    assert_string_equal(out, "abcdef"); /* the escape does not fit: left out whole */
    gb_text_escape(out, 6, "abc\xc3\xa9z");
    assert_string_equal(out, "abc\xc3\xa9");
    gb_text_escape(out, 5, "abc\xc3\xa9z");
    assert_string_equal(out, "abc");
    assert_null(gb_text_control("plain text"));
    assert_string_equal(gb_text_control("x\ty"), "\ty");
}

/* A run's warning stays one line whatever a value holds. */
static void test_warning_one_line(void **state)
{
    struct gb_run *run = calloc(1, sizeof *run);
    (void)state;
    assert_non_null(run);
    assert_int_equal(gb_run_warn(run, "axes.width = \"%s\" is odd", "a\nb"), GB_OK);
    assert_int_equal(run->n_warnings, 1);
    assert_string_equal(run->warnings[0], "axes.width = \"a\\nb\" is odd");
    gb_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_long_keeps_reason),
        cmocka_unit_test(test_utf8_not_split),
        cmocka_unit_test(test_message_as_argument),
        cmocka_unit_test(test_text_escape),
        cmocka_unit_test(test_warning_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
