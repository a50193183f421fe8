/* test_errors.c - the one-line error message of gb_error_set (status.c):
 * control characters escaped, a long message shortened in its middle so
 * that its reason (at its end) stays, UTF-8 characters never split, and
 * the current message usable as an argument. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "gpubound/status.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_long_keeps_reason),
        cmocka_unit_test(test_utf8_not_split),
        cmocka_unit_test(test_message_as_argument),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
