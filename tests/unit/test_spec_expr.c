/* Spec expressions: libmatheval's arithmetic, and what gpubound adds
 * (ceil, floor, min, max, comparisons, && and ||), evaluated against values
 * worked out by hand; and every kind of error in one clear phrase. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/spec.h"

static const char *const names[] = {"n", "block_size_x", "work_per_thread", "TILE"};
static const double values[] = {1000, 32, 4, 16};

static double eval(const char *text)
{
    struct gb_expr *e = NULL;
    double x = NAN;
    if (gb_expr_parse(text, names, 4, &e) != GB_OK)
        fail_msg("\"%.60s...\": %s", text, gb_error_message());
    assert_int_equal(gb_expr_eval(e, values, &x), GB_OK);
    assert_string_equal(gb_expr_text(e), text);
    gb_expr_free(e);
    return x;
}

static void parse_error(const char *text, const char *msg)
{
    struct gb_expr *e = NULL;
    assert_int_equal(gb_expr_parse(text, names, 4, &e), GB_ERR_USAGE);
    assert_null(e);
    if (!strstr(gb_error_message(), msg))
        fail_msg("\"%s\": message \"%s\" lacks \"%s\"", text, gb_error_message(), msg);
}

static void test_arithmetic(void **state)
{
    (void)state;
    assert_true(eval("1 + 2 * 3") == 7);
    assert_true(eval("(1 + 2) * 3") == 9);
    assert_true(eval("2^10") == 1024);
    assert_true(eval("n / block_size_x") == 31.25);
    assert_true(eval("3 * n * n * 4") == 12e6);
    assert_true(eval("-TILE + 1") == -15);
    assert_true(eval("sqrt(TILE)") == 4);
    assert_true(eval("abs(3 - n)") == 997);
    assert_true(eval("1e3") == 1000);
    assert_true(eval("2.5e-1 * 4") == 1);
    assert_true(eval("sqrt (TILE) * 2") == 8);
}

static void test_added_functions(void **state)
{
    (void)state;
    assert_true(eval("ceil(n / block_size_x)") == 32);
    assert_true(eval("floor(n / block_size_x)") == 31);
    assert_true(eval("ceil(n / (block_size_x * work_per_thread))") == 8);
    assert_true(eval("ceil(1000 / 8)") == 125);
    assert_true(eval("min(n, 64)") == 64);
    assert_true(eval("max(n, 64)") == 1000);
    assert_true(eval("min(7, TILE, 3, n)") == 3);
    assert_true(eval("max(min(n, 100), 50) * 2") == 200);
    assert_true(eval("2 * ceil(n / 3) + 1") == 669);
    assert_true(eval("floor(ceil(n / 7) / 2)") == 71);
    assert_true(eval("ceil( n/16 )") == 63);
    /* A name that merely starts like a function is a name. */
    const char *const nm[] = {"maxi", "ceiling"};
    const double v[] = {5, 7};
    struct gb_expr *e = NULL;
    double x;
    assert_int_equal(gb_expr_parse("maxi + ceiling", nm, 2, &e), GB_OK);
    assert_int_equal(gb_expr_eval(e, v, &x), GB_OK);
    assert_true(x == 12);
    gb_expr_free(e);
}

static void test_comparisons_and_logic(void **state)
{
    (void)state;
    assert_true(eval("block_size_x * block_size_x <= 1024") == 1);
    assert_true(eval("block_size_x * block_size_x < 1024") == 0);
    assert_true(eval("n > 999") == 1);
    assert_true(eval("n >= 1001") == 0);
    assert_true(eval("TILE == 16") == 1);
    assert_true(eval("TILE != 16") == 0);
    assert_true(eval("n > 10 && TILE < 8") == 0);
    assert_true(eval("n > 10 || TILE < 8") == 1);
    assert_true(eval("TILE < 8 || TILE > 12 && n < 10") == 0);  /* && binds tighter */
    assert_true(eval("(TILE < 8 || TILE > 12) && n > 10") == 1);
    assert_true(eval("(n > 4) * 10 + 1") == 11);
    assert_true(eval("min(n > 4, 7)") == 1);
    assert_true(eval("4 * block_size_x * TILE * 4 <= 48 * 1024") == 1);
}

static void test_errors(void **state)
{
    (void)state;
    parse_error("ceil(n / bsx)", "unknown name \"bsx\"");
    parse_error("ceil(n / 2", "unbalanced parentheses");
    parse_error("n) + (1", "unbalanced parentheses");
    parse_error("3 * gbq__33333334 * n + (n >= ceil(n / 2))", "names beginning with \"gbq__\" are reserved");
    parse_error("1 < n < 3", "chained comparison");
    parse_error("min(n)", "min() takes at least 2 arguments");
    parse_error("ceil(n, 2)", "ceil() takes 1 argument, not 2");
    parse_error("n % 2", "unexpected character '%'");
    parse_error("n = 2", "unexpected character '='");
    parse_error("", "an empty expression");
    parse_error("  ", "an empty expression");
    parse_error("n block_size_x", "two operands without an operator between them");
    parse_error("2 (n)", "two operands without an operator between them");
    parse_error("(n) 2", "two operands without an operator between them");
    parse_error("ceil(n) TILE", "two operands without an operator between them");
    parse_error("n sqrt(4)", "two operands without an operator between them");
    parse_error("ceih(n / 2)", "unknown function \"ceih\"");
    parse_error("2 * n(3)", "unknown function \"n\"");
    parse_error("n + ", "not an expression");
    parse_error("n && ", "an empty expression");
    parse_error("min(, n)", "an empty expression");
}

static void test_reserved_and_uses(void **state)
{
    (void)state;
    assert_true(gb_expr_reserved("pi"));
    assert_true(gb_expr_reserved("e"));
    assert_true(gb_expr_reserved("ceil"));
    assert_true(gb_expr_reserved("sqrt"));
    assert_false(gb_expr_reserved("n"));
    assert_false(gb_expr_reserved("block_size_x"));
    struct gb_expr *e = NULL;
    assert_int_equal(gb_expr_parse("ceil(n / TILE) > 2", names, 4, &e), GB_OK);
    assert_true(gb_expr_uses(e, 0));
    assert_false(gb_expr_uses(e, 1));
    assert_true(gb_expr_uses(e, 3));
    gb_expr_free(e);
}

/* Division by zero is a value (infinite), for the caller to refuse. */
static void test_not_finite(void **state)
{
    (void)state;
    assert_true(isinf(eval("n / (TILE - 16)")));
}

/* Outer blanks and enclosing parentheses are taken away only when they
 * enclose the whole text: "(n) * (TILE)" is a product, not "n) * (TILE". */
static void test_trimming(void **state)
{
    (void)state;
    assert_true(eval("(n) * (TILE)") == 16000);
    assert_true(eval(" ( ( n ) ) ") == 1000);
    assert_true(eval("(n - 1) / (TILE - 6)") == 99.9);
    assert_true(eval("(n > 4) + (TILE > 100)") == 1);
    assert_true(eval("((n > 4)) && ((TILE < 8) || (TILE > 12))") == 1);
    assert_true(eval("\t(TILE)\n") == 16);
    parse_error("( )", "an empty expression");
    parse_error("()", "an empty expression");
}

/* && binds tighter than ||, each chain is one node, and every operand of a
 * chain counts (the last as much as the first). */
static void test_logic_grouping(void **state)
{
    (void)state;
    assert_true(eval("TILE > 12 || TILE < 8 && n < 10") == 1);
    assert_true(eval("n < 10 && TILE > 12 || TILE < 8") == 0);
    assert_true(eval("n < 10 && TILE > 12 || TILE > 8") == 1);
    assert_true(eval("TILE > 8 && n > 10 && block_size_x == 32 && work_per_thread == 4") == 1);
    assert_true(eval("TILE > 8 && n > 10 && block_size_x == 32 && work_per_thread == 5") == 0);
    assert_true(eval("TILE > 80 && n > 10 && block_size_x == 32 && work_per_thread == 4") == 0);
    assert_true(eval("TILE > 80 || n > 10000 || block_size_x == 33 || work_per_thread == 4") == 1);
    assert_true(eval("TILE > 80 || n > 10000 || block_size_x == 33 || work_per_thread == 5") == 0);
    assert_true(eval("TILE == 16 || n < 0 && TILE < 0") == 1);
    assert_true(eval("(TILE == 16 || n < 0) && TILE < 0") == 0);
    assert_true(eval("min(n > 4 && TILE > 4, 7)") == 1);
    assert_true(eval("2 * (n > 4 || TILE > 400)") == 2);
    struct gb_expr *e = NULL;
    /* a || b && c: an OR of a and (an AND of b and c), 6 nodes with the 3
     * comparisons' 6 operands: 1 + (1 + 2) + (1 + 2 * 3)... counted here. */
    assert_int_equal(gb_expr_parse("n > 1 || TILE > 2 && n > 3", names, 4, &e), GB_OK);
    assert_int_equal(gb_expr_size(e), 1 + 3 + 1 + 3 + 3);
    gb_expr_free(e);
    assert_int_equal(gb_expr_parse("n > 1 && TILE > 2 && n > 3 && TILE > 4", names, 4, &e), GB_OK);
    assert_int_equal(gb_expr_size(e), 1 + 4 * 3);
    gb_expr_free(e);
}

/* The text's length and the nesting of its parentheses are bounded, each
 * refused in one phrase; anything within the bounds parses. */
static void test_limits(void **state)
{
    (void)state;
    size_t cap = 4 * GB_EXPR_MAX_LEN + 64;
    char *t = malloc(cap);
    assert_non_null(t);
    /* n+n+...+n: just within the length, and one character over. */
    size_t k = 0;
    t[k++] = 'n';
    while (k + 2 <= GB_EXPR_MAX_LEN)
        t[k++] = '+', t[k++] = 'n';
    t[k] = '\0';
    assert_true(eval(t) == 1000.0 * (double)((k + 1) / 2));
    assert_int_equal(k, GB_EXPR_MAX_LEN - 1);
    t[k++] = '+', t[k++] = 'n';
    t[k] = '\0';
    assert_int_equal(strlen(t), GB_EXPR_MAX_LEN + 1);
    parse_error(t, "longer than 4096 characters (4097)");
    /* A chain of && within the length: linear, each operand checked. */
    k = 0;
    for (int i = 0; k + 32 < GB_EXPR_MAX_LEN; i++)
        k += (size_t)snprintf(t + k, cap - k, "%sn > %d", i ? " && " : "", i);
    assert_true(eval(t) == 1);
    snprintf(t + k, cap - k, " && n > 1000");
    assert_true(eval(t) == 0);
    /* Parentheses (calls included) nested GB_EXPR_MAX_DEPTH deep parse;
     * one more is refused. */
    k = 0;
    for (int i = 0; i < GB_EXPR_MAX_DEPTH - 1; i++)
        k += (size_t)snprintf(t + k, cap - k, "ceil(");
    k += (size_t)snprintf(t + k, cap - k, "(n)");
    for (int i = 0; i < GB_EXPR_MAX_DEPTH - 1; i++)
        t[k++] = ')';
    t[k] = '\0';
    assert_true(eval(t) == 1000);
    memmove(t + 1, t, k + 1);
    t[0] = '(';
    snprintf(t + k + 1, cap - k - 1, ")");
    parse_error(t, "parentheses nested 65 deep, more than 64");
    /* Far over the length: refused without reading it all. */
    memset(t, '(', cap - 1);
    t[cap - 1] = '\0';
    parse_error(t, "longer than 4096 characters");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_added_functions),
        cmocka_unit_test(test_comparisons_and_logic),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_reserved_and_uses),
        cmocka_unit_test(test_not_finite),
        cmocka_unit_test(test_trimming),
        cmocka_unit_test(test_logic_grouping),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
