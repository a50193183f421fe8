/* test_table.c - tables and number formats: golden text for every format,
 * significant digits, "±" rounding, and fitting to a terminal's width. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "gpubound/report.h"

/* What `fmt` prints for `t`, as a malloc'ed string. */
static char *print_to_string(const struct gb_table *t, enum gb_format fmt, int width)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(gb_table_print(t, f, fmt, width), GB_OK);
    fclose(f);
    return buf;
}

static char *markdown_to_string(const struct gb_table *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(gb_table_print_markdown(t, f), GB_OK);
    fclose(f);
    return buf;
}

static const char *fmt_num(double v, int sig)
{
    static char buf[64];
    gb_format_num(buf, sizeof buf, v, sig);
    return buf;
}

static const char *fmt_ci(double v, double h)
{
    static char buf[96];
    gb_format_ci(buf, sizeof buf, v, h);
    return buf;
}

static void test_significant_digits(void **state)
{
    (void)state;
    assert_string_equal(fmt_num(1234.6, 4), "1235");
    assert_string_equal(fmt_num(1234.6, 2), "1235");       /* integer digits are kept */
    assert_string_equal(fmt_num(0.012345, 4), "0.01235");
    assert_string_equal(fmt_num(12.5, 3), "12.5");
    assert_string_equal(fmt_num(2.0, 3), "2.00");
    assert_string_equal(fmt_num(9.9996, 4), "10.00");      /* rounding up adds no digit */
    assert_string_equal(fmt_num(-2.5, 4), "-2.500");
    assert_string_equal(fmt_num(0, 4), "0");
    assert_string_equal(fmt_num(1e-5, 3), "1.00e-05");
    assert_string_equal(fmt_num(3e15, 2), "3.0e+15");
    assert_string_equal(fmt_num(123456789, 4), "123456789");
    assert_string_equal(fmt_num(42.123, 0), "42.12");      /* 0 means the default, 4 */
    assert_string_equal(fmt_num(NAN, 4), "nan");
    assert_string_equal(fmt_num(-INFINITY, 4), "-inf");
}

static void test_ci_rounding(void **state)
{
    (void)state;
    /* One significant digit when the half width's leading digits are 355..949. */
    assert_string_equal(fmt_ci(1.23456, 0.00512), "1.235 \xc2\xb1 0.005");
    assert_string_equal(fmt_ci(2.5, 0.355), "2.5 \xc2\xb1 0.4");
    assert_string_equal(fmt_ci(99.364, 0.6), "99.4 \xc2\xb1 0.6");
    /* Two when they are 100..354. */
    assert_string_equal(fmt_ci(7.0012, 0.0123), "7.001 \xc2\xb1 0.012");
    assert_string_equal(fmt_ci(0.5, 0.00099), "0.5000 \xc2\xb1 0.0010"); /* 990 rounds up to 1.0 */
    assert_string_equal(fmt_ci(1.0, 0.0996), "1.00 \xc2\xb1 0.10");
    assert_string_equal(fmt_ci(12345.6, 123), "12350 \xc2\xb1 120");     /* above the units */
    assert_string_equal(fmt_ci(3.14159, 0.354), "3.14 \xc2\xb1 0.35");
    /* No usable half width: the value alone, 4 significant digits. */
    assert_string_equal(fmt_ci(100, 0), "100.0");
    assert_string_equal(fmt_ci(100, NAN), "100.0");
    /* A value rounding to zero has no sign. */
    assert_string_equal(fmt_ci(-0.0001, 0.01), "0.000 \xc2\xb1 0.010");
}

static void test_format_parse(void **state)
{
    enum gb_format f = GB_FORMAT_JSON;
    (void)state;
    assert_int_equal(gb_format_parse("table", &f), GB_OK);
    assert_int_equal(f, GB_FORMAT_TABLE);
    assert_int_equal(gb_format_parse("csv", &f), GB_OK);
    assert_int_equal(f, GB_FORMAT_CSV);
    assert_int_equal(gb_format_parse("json", &f), GB_OK);
    assert_int_equal(f, GB_FORMAT_JSON);
    assert_int_equal(gb_format_parse("xml", &f), GB_ERR_USAGE);
    /* The names come from the table of formats, in its order. */
    assert_string_equal(gb_error_message(), "unknown format 'xml' (use table, csv or json)");
    assert_int_equal(gb_format_parse(NULL, &f), GB_ERR_USAGE);
    /* A value with no row is refused, not printed as some other format. */
    struct gb_table *t = gb_table_new();
    assert_non_null(t);
    assert_int_equal(gb_table_print(t, stdout, (enum gb_format)99, 0), GB_ERR_USAGE);
    gb_table_free(t);
}

/* The small table every golden test prints. */
static struct gb_table *small_table(void)
{
    struct gb_table *t = gb_table_new();
    assert_non_null(t);
    assert_int_equal(gb_table_column(t, "bench", NULL), GB_OK);
    assert_int_equal(gb_table_column(t, "width", ""), GB_OK);
    assert_int_equal(gb_table_column(t, "median", "\xc2\xb5s"), GB_OK);
    assert_int_equal(gb_table_column(t, "samples", NULL), GB_OK);
    assert_int_equal(gb_table_column(t, "GB/s", NULL), GB_OK);
    assert_int_equal(gb_table_column(t, "note", NULL), GB_OK);

    assert_int_equal(gb_table_row(t), GB_OK);
    gb_table_cell_text(t, "read");
    gb_table_cell_text(t, "4");
    gb_table_cell_ci(t, 123.456, 0.512);
    gb_table_cell_int(t, 40);
    gb_table_cell_num(t, 2712.4, 4);
    gb_table_cell_text(t, "a, \"quoted\" note");

    assert_int_equal(gb_table_row(t), GB_OK);
    gb_table_cell_text(t, "copy");
    gb_table_cell_text(t, "16");
    gb_table_cell_ci(t, 7.0012, 0.0123);
    gb_table_cell_int(t, 54);
    gb_table_cell_num(t, 0.1, 4);
    /* note left empty: the row ends early */

    assert_int_equal(gb_table_row(t), GB_OK);
    gb_table_cell_text(t, "dtod");
    gb_table_cell_empty(t);
    gb_table_cell_ci(t, 1.5, NAN);
    gb_table_cell_int(t, 7);
    gb_table_cell_num(t, NAN, 4);
    gb_table_cell_text(t, "no width axis");
    return t;
}

static void test_table_golden(void **state)
{
    (void)state;
    struct gb_table *t = small_table();
    char *s = print_to_string(t, GB_FORMAT_TABLE, 0);
    /* Labels over their columns; numbers (and number-like text) on the
     * right, CI columns aligned on the "±", no trailing blanks. */
    const char *want =
        "bench  width    median (\xc2\xb5s)  samples    GB/s  note\n"
        "-----  -----  -------------  -------  ------  ----------------\n"
        "read       4  123.5 \xc2\xb1 0.5         40    2712  a, \"quoted\" note\n"
        "copy      16  7.001 \xc2\xb1 0.012       54  0.1000\n"
        "dtod          1.500                7          no width axis\n";
    assert_string_equal(s, want);
    free(s);
    assert_int_equal(gb_table_n_rows(t), 3);
    assert_int_equal(gb_table_n_cols(t), 6);
    gb_table_free(t);
}

static void test_csv_golden(void **state)
{
    (void)state;
    struct gb_table *t = small_table();
    char *s = print_to_string(t, GB_FORMAT_CSV, 80);
    /* A CI column is two: value and half width, at full precision. */
    const char *want =
        "bench,width,median (\xc2\xb5s),median \xc2\xb1 (\xc2\xb5s),samples,GB/s,note\n"
        "read,4,123.456,0.512,40,2712.4,\"a, \"\"quoted\"\" note\"\n"
        "copy,16,7.0012,0.0123,54,0.1,\n"
        "dtod,,1.5,,7,,no width axis\n";
    assert_string_equal(s, want);
    free(s);
    gb_table_free(t);
}

static void test_json_golden(void **state)
{
    (void)state;
    struct gb_table *t = small_table();
    char *s = print_to_string(t, GB_FORMAT_JSON, 0);
    const char *want =
        "[\n"
        " {\"bench\": \"read\", \"width\": \"4\", \"median (\xc2\xb5s)\": 123.456, "
        "\"median \xc2\xb1 (\xc2\xb5s)\": 0.512, \"samples\": 40, \"GB/s\": 2712.4, "
        "\"note\": \"a, \\\"quoted\\\" note\"},\n"
        " {\"bench\": \"copy\", \"width\": \"16\", \"median (\xc2\xb5s)\": 7.0012, "
        "\"median \xc2\xb1 (\xc2\xb5s)\": 0.0123, \"samples\": 54, \"GB/s\": 0.1, \"note\": null},\n"
        " {\"bench\": \"dtod\", \"width\": null, \"median (\xc2\xb5s)\": 1.5, "
        "\"median \xc2\xb1 (\xc2\xb5s)\": null, \"samples\": 7, \"GB/s\": null, "
        "\"note\": \"no width axis\"}\n"
        "]\n";
    assert_string_equal(s, want);

    /* And it is JSON that reads back to the same numbers. */
    json_error_t err;
    json_t *doc = json_loads(s, 0, &err);
    assert_non_null(doc);
    assert_int_equal(json_array_size(doc), 3);
    assert_true(json_real_value(json_object_get(json_array_get(doc, 0), "GB/s")) == 2712.4);
    json_decref(doc);
    free(s);
    gb_table_free(t);
}

static void test_markdown_golden(void **state)
{
    (void)state;
    struct gb_table *t = gb_table_new();
    gb_table_column(t, "bench", NULL);
    gb_table_column(t, "GB/s", NULL);
    gb_table_row(t);
    gb_table_cell_text(t, "a|b");
    gb_table_cell_ci(t, 2712.4, 3.3);
    char *s = markdown_to_string(t);
    assert_string_equal(s, "| bench | GB/s |\n"
                           "| --- | ---: |\n"
                           "| a\\|b | 2712.4 \xc2\xb1 3.3 |\n");
    free(s);
    gb_table_free(t);
}

static void test_full_precision(void **state)
{
    (void)state;
    struct gb_table *t = gb_table_new();
    double v = 0.1 + 0.2;      /* 0.30000000000000004: needs 17 digits */
    gb_table_column(t, "x", NULL);
    gb_table_row(t);
    gb_table_cell_num(t, v, 3);
    char *csv = print_to_string(t, GB_FORMAT_CSV, 0);
    assert_string_equal(csv, "x\n0.30000000000000004\n");
    char *json = print_to_string(t, GB_FORMAT_JSON, 0);
    json_t *doc = json_loads(json, 0, NULL);
    assert_non_null(doc);
    assert_true(json_real_value(json_object_get(json_array_get(doc, 0), "x")) == v);
    char *text = print_to_string(t, GB_FORMAT_TABLE, 0);
    assert_string_equal(text, "    x\n-----\n0.300\n");
    json_decref(doc);
    free(csv);
    free(json);
    free(text);
    gb_table_free(t);
}

/* Programs read numbers written out, with every digit that tells the
 * double apart: an exponent only below 1e-4 and from 1e17, never "1e+01"
 * for 10 (the shortest "%.*g" form). JSON keeps a real a real ("10.0"). */
static void test_plain_numbers(void **state)
{
    (void)state;
    static const struct {
        double v;
        const char *csv, *json;
    } cases[] = {
        {10, "10", "10.0"},
        {60, "60", "60.0"},
        {100, "100", "100.0"},
        {-10, "-10", "-10.0"},
        {10.5, "10.5", "10.5"},
        {1200000, "1200000", "1200000.0"},
        {123456789012.0, "123456789012", "123456789012.0"},
        {1e15, "1000000000000000", "1000000000000000.0"},
        {0.000123, "0.000123", "0.000123"},
        {1.5e-7, "1.5e-07", "1.5e-07"},
        {2e20, "2e+20", "2e+20"},
        {0, "0", "0.0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct gb_table *t = gb_table_new();
        char want[128];
        gb_table_column(t, "x", NULL);
        gb_table_row(t);
        gb_table_cell_num(t, cases[i].v, 4);
        char *csv = print_to_string(t, GB_FORMAT_CSV, 0), *json = print_to_string(t, GB_FORMAT_JSON, 0);
        snprintf(want, sizeof want, "x\n%s\n", cases[i].csv);
        assert_string_equal(csv, want);
        snprintf(want, sizeof want, "[\n {\"x\": %s}\n]\n", cases[i].json);
        assert_string_equal(json, want);
        json_t *doc = json_loads(json, 0, NULL);
        assert_non_null(doc);
        assert_true(json_number_value(json_object_get(json_array_get(doc, 0), "x")) == cases[i].v);
        json_decref(doc);
        free(csv);
        free(json);
        gb_table_free(t);
    }
}

/* Display columns of a UTF-8 line. */
static size_t display_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            w++;
    return w;
}

static void test_fit_to_terminal(void **state)
{
    (void)state;
    struct gb_table *t = gb_table_new();
    gb_table_column(t, "bench", NULL);
    gb_table_column(t, "GB/s", NULL);
    gb_table_column(t, "note", NULL);
    gb_table_row(t);
    gb_table_cell_text(t, "read");
    gb_table_cell_num(t, 2712.4, 4);
    gb_table_cell_text(t, "the stopping rule was not met within the time cap");
    gb_table_row(t);
    gb_table_cell_text(t, "copy_with_a_long_name");
    gb_table_cell_num(t, 2903.7, 4);
    gb_table_cell_text(t, "ok");

    /* Unlimited: nothing is cut. */
    char *s = print_to_string(t, GB_FORMAT_TABLE, 0);
    assert_null(strstr(s, "\xe2\x80\xa6"));
    assert_non_null(strstr(s, "within the time cap"));
    free(s);

    /* 40 columns: the widest text column (note) is cut first, with "…",
     * and every line fits; numbers are never cut. */
    s = print_to_string(t, GB_FORMAT_TABLE, 40);
    assert_string_equal(s,
                        "bench                  GB/s  note\n"
                        "---------------------  ----  -----------\n"
                        "read                   2712  the stoppi\xe2\x80\xa6\n"
                        "copy_with_a_long_name  2904  ok\n");
    for (char *line = s; *line;) {
        size_t n = strcspn(line, "\n");
        assert_true(display_width(line, n) <= 40);
        line += n + (line[n] == '\n');
    }
    free(s);

    /* 24 columns: the note down to its floor of 6 characters, then the bench. */
    s = print_to_string(t, GB_FORMAT_TABLE, 24);
    assert_string_equal(s,
                        "bench       GB/s  note\n"
                        "----------  ----  ------\n"
                        "read        2712  the s\xe2\x80\xa6\n"
                        "copy_with\xe2\x80\xa6  2904  ok\n");
    free(s);

    /* Too narrow for anything: the floor holds and lines are not wrapped. */
    s = print_to_string(t, GB_FORMAT_TABLE, 5);
    assert_non_null(strstr(s, "copy_\xe2\x80\xa6  2904  ok\n"));
    free(s);
    gb_table_free(t);
}

static void test_term_width_not_a_terminal(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(gb_term_width(f), 0);
    fclose(f);
}

static void test_misuse(void **state)
{
    (void)state;
    struct gb_table *t = gb_table_new();
    assert_int_equal(gb_table_column(t, "a", "s"), GB_OK);
    assert_int_equal(gb_table_column(t, "a", "s"), GB_ERR_USAGE);   /* same label */
    assert_int_equal(gb_table_column(t, "a", "ms"), GB_OK);         /* another unit */
    assert_int_equal(gb_table_cell_text(t, "x"), GB_ERR_USAGE);     /* no row yet */
    assert_int_equal(gb_table_row(t), GB_OK);
    assert_int_equal(gb_table_cell_num(t, 1, 3), GB_OK);
    assert_int_equal(gb_table_cell_num(t, 2, 3), GB_OK);
    assert_int_equal(gb_table_cell_num(t, 3, 3), GB_ERR_USAGE);     /* row is full */
    /* A column added after a row started extends that row. */
    assert_int_equal(gb_table_column(t, "late", NULL), GB_OK);
    assert_int_equal(gb_table_cell_text(t, "z"), GB_OK);
    char *s = print_to_string(t, GB_FORMAT_CSV, 0);
    assert_string_equal(s, "a (s),a (ms),late\n1,2,z\n");
    free(s);
    gb_table_free(t);
    gb_table_free(NULL);
}

/* An interval's ends and its value to the decimal place of the CI rule. */
static void test_interval_digits(void **state)
{
    (void)state;
    /* Half width 0.034 (two digits, leading 340): last digit at 10^-3. */
    assert_int_equal(gb_format_interval_sig(23.079, 23.079, 23.045, 23.107, 3), 5);
    assert_int_equal(gb_format_interval_sig(23.045, 23.079, 23.045, 23.107, 3), 5);
    /* Half width 0.11: 29.90 29.79 30.01, as gb_format_ci would end 29.90 ± 0.11. */
    assert_string_equal(fmt_num(29.9016, gb_format_interval_sig(29.9016, 29.9016, 29.79, 30.01, 3)), "29.90");
    assert_string_equal(fmt_num(30.0131, gb_format_interval_sig(30.0131, 29.9016, 29.79, 30.01, 3)), "30.01");
    /* A wide interval keeps one digit at least; 1050 +- 400 ends at the hundreds. */
    assert_int_equal(gb_format_interval_sig(1050, 1050, 650, 1450, 4), 2);
    assert_int_equal(gb_format_interval_sig(0.5, 0.5, 0.1, 900, 4), 1);
    /* No interval, zero, not finite: the fallback. */
    assert_int_equal(gb_format_interval_sig(2.0, 2.0, 2.0, 2.0, 3), 3);
    assert_int_equal(gb_format_interval_sig(0, 1.0, 0.9, 1.1, 4), 4);
    assert_int_equal(gb_format_interval_sig(1.0, 1.0, NAN, 1.1, 4), 4);
}

/* A ratio and its ends at one decimal place, deep enough to tell an end from 1. */
static void test_ratio_place(void **state)
{
    (void)state;
    char b[64];
    int place = 99;
    /* Half width 0.0016 (two digits): 10^-4, as compare's summary writes 1.0002 [0.9986, 1.0018]. */
    assert_int_equal(gb_format_ratio_place(1.00021, 0.99857, 1.00181, &place), 1);
    assert_int_equal(place, -4);
    /* A value that rounds up to 1 keeps the ends' four decimals: 1.0000, not 1.000 or 0.99996. */
    assert_int_equal(gb_format_ratio_place(0.99996, 0.99843, 1.00107, &place), 1);
    assert_int_equal(place, -4);
    gb_format_place(b, sizeof b, 0.99996, place);
    assert_string_equal(b, "1.0000");
    /* An end that would read as 1 (1.00000 at 10^-5) moves the place on. */
    assert_int_equal(gb_format_ratio_place(1.000039, 1.000001, 1.000102, &place), 1);
    assert_int_equal(place, -6);
    gb_format_place(b, sizeof b, 1.000001, place);
    assert_string_equal(b, "1.000001");
    /* An end that is 1 stays 1; a wide interval ends at the tens; none: unset. */
    assert_int_equal(gb_format_ratio_place(1.5, 1.0, 2.0, &place), 1);
    assert_int_equal(place, -1);
    assert_int_equal(gb_format_ratio_place(230, 190, 270, &place), 1);
    assert_int_equal(place, 1);
    gb_format_place(b, sizeof b, 234, place);
    assert_string_equal(b, "230");
    assert_int_equal(gb_format_ratio_place(1.0, NAN, 1.1, &place), 0);
    assert_int_equal(gb_format_ratio_place(1.0, 1.0, 1.0, &place), 0);
    gb_format_place(b, sizeof b, -0.00001, -3);
    assert_string_equal(b, "0.000");
}

/* Cells written to one decimal place: shown so, full precision in CSV. */
static void test_cell_place(void **state)
{
    (void)state;
    struct gb_table *t = gb_table_new();
    assert_int_equal(gb_table_column(t, "ratio", NULL), GB_OK);
    assert_int_equal(gb_table_column(t, "lo", NULL), GB_OK);
    assert_int_equal(gb_table_row(t), GB_OK);
    assert_int_equal(gb_table_cell_place(t, 0.99996, -4), GB_OK);
    assert_int_equal(gb_table_cell_place(t, 0.99843, -4), GB_OK);
    char *s = print_to_string(t, GB_FORMAT_TABLE, 0);
    assert_string_equal(s, " ratio      lo\n------  ------\n1.0000  0.9984\n");
    free(s);
    s = print_to_string(t, GB_FORMAT_CSV, 0);
    assert_string_equal(s, "ratio,lo\n0.99996,0.99843\n");
    free(s);
    gb_table_free(t);
}

/* A text of any length is shown whole by every writer for people (no
 * fixed buffer cuts it); only a terminal too narrow cuts it, with "…". */
static void test_long_text_whole(void **state)
{
    (void)state;
    char text[600];
    for (size_t i = 0; i + 1 < sizeof text; i++)
        text[i] = (char)('a' + i % 26);
    strcpy(text + sizeof text - 6, " end.");
    struct gb_table *t = gb_table_new();
    assert_int_equal(gb_table_column(t, "note", NULL), GB_OK);
    assert_int_equal(gb_table_row(t), GB_OK);
    assert_int_equal(gb_table_cell_text(t, text), GB_OK);
    char *s = print_to_string(t, GB_FORMAT_TABLE, 0);
    assert_non_null(strstr(s, text));
    free(s);
    s = markdown_to_string(t);
    assert_non_null(strstr(s, text));
    free(s);
    s = gb_table_shown_dup(t, 0, 0);
    assert_string_equal(s, text);
    free(s);
    assert_int_equal(gb_table_shown(t, 0, 0, NULL, 0), (int)strlen(text));
    gb_table_free(t);
}

/* The cell text every writer for people shows. */
static void test_shown(void **state)
{
    (void)state;
    char buf[64];
    struct gb_table *t = gb_table_new();
    assert_int_equal(gb_table_column(t, "median", "µs"), GB_OK);
    assert_int_equal(gb_table_column(t, "GB/s", NULL), GB_OK);
    assert_int_equal(gb_table_row(t), GB_OK);
    assert_int_equal(gb_table_cell_ci(t, 481.9200038909912, 1.3119876384735107), GB_OK);
    assert_int_equal(gb_table_cell_num(t, 4460.5874805857684, 4), GB_OK);
    gb_table_shown(t, 0, 0, buf, sizeof buf);
    assert_string_equal(buf, "481.9 \xc2\xb1 1.3");
    gb_table_shown(t, 0, 1, buf, sizeof buf);
    assert_string_equal(buf, "4461");
    gb_table_shown(t, 1, 0, buf, sizeof buf);
    assert_string_equal(buf, "");
    assert_string_equal(gb_table_label(t, 0), "median (µs)");
    assert_null(gb_table_label(t, 2));
    gb_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_significant_digits),
        cmocka_unit_test(test_ci_rounding),
        cmocka_unit_test(test_format_parse),
        cmocka_unit_test(test_table_golden),
        cmocka_unit_test(test_csv_golden),
        cmocka_unit_test(test_json_golden),
        cmocka_unit_test(test_plain_numbers),
        cmocka_unit_test(test_markdown_golden),
        cmocka_unit_test(test_full_precision),
        cmocka_unit_test(test_fit_to_terminal),
        cmocka_unit_test(test_term_width_not_a_terminal),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_interval_digits),
        cmocka_unit_test(test_shown),
        cmocka_unit_test(test_ratio_place),
        cmocka_unit_test(test_cell_place),
        cmocka_unit_test(test_long_text_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
