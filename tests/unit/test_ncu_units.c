/* Nsight Compute prints each value in a unit with an SI or binary prefix
 * ("usecond", "msecond", "Kbyte" for 1000 bytes, "Kibyte" for 1024...). The importer converts every
 * one to base units (ns, bytes). Each case below is a raw-layout export
 * (`ncu --csv --page raw`) written here with one metric in one unit; the
 * expected base value is worked out by hand in the table. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpubound/ncu.h"
#include "results/validate.h"

struct unit_case {
    const char *metric, *unit, *value;
    double base; /* the value in ns or bytes */
};

static const struct unit_case cases[] = {
    {"gpu__time_duration.sum", "nsecond", "2,304", 2304.0},
    {"gpu__time_duration.sum", "usecond", "61.47", 61470.0},
    {"gpu__time_duration.sum", "msecond", "1.5", 1500000.0},
    {"gpu__time_duration.sum", "second", "0.25", 250000000.0},
    {"dram__bytes_read.sum", "byte", "512", 512.0},
    {"dram__bytes_read.sum", "Kbyte", "4.22", 4220.0},
    {"dram__bytes_read.sum", "Mbyte", "2.5", 2500000.0},
    {"dram__bytes_read.sum", "Gbyte", "1.25", 1250000000.0},
    {"dram__bytes_read.sum", "Tbyte", "2", 2e12},
    {"dram__bytes_read.sum", "Kibyte", "3", 3072.0},
    {"dram__bytes_read.sum", "Mibyte", "1.5", 1572864.0},
    {"dram__bytes_read.sum", "Gibyte", "2", 2147483648.0},
    {"launch__shared_mem_per_block_static", "Kbyte/block", "4.22", 4220.0},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", "87.5", 87.5},
    {"dram__bytes_read.sum.per_second", "Gbyte/second", "3.2", 3.2e9},
    {"smsp__sass_inst_executed_op_global_ld.sum", "inst", "2,097,152", 2097152.0},
};

static void write_export(const char *path, const struct unit_case *c)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "==PROF== Connected to process 1 (/bin/app)\n");
    fprintf(f, "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Block Size\","
               "\"Grid Size\",\"%s\"\n", c->metric);
    fprintf(f, "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"%s\"\n", c->unit);
    fprintf(f, "\"0\",\"1\",\"app\",\"h\",\"k(float *)\",\"(256, 1, 1)\",\"(64, 1, 1)\",\"%s\"\n",
            c->value);
    assert_int_equal(fclose(f), 0);
}

static void test_units(void **state)
{
    (void)state;
    char path[] = "/tmp/gb-test-ncu-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct gb_ncu_report *r = NULL;
        write_export(path, &cases[i]);
        assert_int_equal(gb_ncu_load(path, &r), GB_OK);
        assert_int_equal(r->n_launches, 1);
        double v = gb_ncu_value(&r->launches[0], cases[i].metric, NAN);
        if (!(fabs(v - cases[i].base) <= 1e-9 * cases[i].base))
            fail_msg("%s %s: read %.17g, expected %.17g", cases[i].value, cases[i].unit, v, cases[i].base);
        gb_ncu_free(r);
    }
    unlink(path);
}

/* Numbers as ncu writes them in an English locale: commas group thousands
 * in threes after a first group of one to three digits, and nothing else
 * passes for a number ("1,,2" is not 12). A field that is not one reads as
 * NaN, its text kept; gb_ncu_range refuses it where a number is needed,
 * and a number outside its range, naming the launch, the metric and the
 * field as written. */
static const struct {
    const char *text;
    double value; /* NaN: not a number */
} forms[] = {
    {"2,097,152", 2097152}, {"12,345", 12345}, {"1,048,576.50", 1048576.5}, {"-1,234.5", -1234.5},
    {"61.47", 61.47}, {"1.5e3", 1500}, {"+7", 7}, {" 42 ", 42}, {"1234567", 1234567},
    {"1,,2", NAN}, {"1,2345", NAN}, {"12,34", NAN}, {"1234,567", NAN}, {",123", NAN},
    {"1,234,", NAN}, {"nan", NAN}, {"inf", NAN}, {"1e999", NAN}, {"0x10", NAN}, {"1e", NAN},
    {"-", NAN}, {"n/a", NAN}, {"", NAN}, {"12 34", NAN},
};

static void test_number_forms(void **state)
{
    (void)state;
    char path[] = "/tmp/gb-test-ncu-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        struct gb_ncu_report *r = NULL;
        const struct unit_case c = {"smsp__sass_inst_executed_op_global_ld.sum", "inst", forms[i].text, 0};
        write_export(path, &c);
        assert_int_equal(gb_ncu_load(path, &r), GB_OK);
        const struct gb_ncu_metric *m = gb_ncu_find(&r->launches[0], c.metric);
        assert_non_null(m);
        assert_string_equal(m->text, forms[i].text);
        if (isnan(forms[i].value) ? !isnan(m->value) : m->value != forms[i].value)
            fail_msg("'%s' read as %.17g, expected %.17g", forms[i].text, m->value, forms[i].value);
        double v = 0;
        int blank = !strcmp(forms[i].text, "") || !strcmp(forms[i].text, "n/a");
        enum gb_status st = gb_ncu_range(&r->launches[0], c.metric, GB_RANGE_NCU_COUNT, &v);
        if (blank || (!isnan(forms[i].value) && forms[i].value >= 0))
            assert_int_equal(st, GB_OK);
        else {
            char want[160];
            snprintf(want, sizeof want, "launch 0: %s = %s inst: allowed numbers 0 to ", c.metric, forms[i].text);
            assert_int_equal(st, GB_ERR_FORMAT);
            if (strncmp(gb_error_message(), want, strlen(want)) != 0)
                fail_msg("'%s': %s", forms[i].text, gb_error_message());
        }
        gb_ncu_free(r);
    }
    unlink(path);
}

/* A duration held to its range: above 0 (1 ns) and at most a day. */
static void test_duration_range(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int ok;
    } d[] = {{"61.47", 1}, {"86,400,000", 1}, {"0", 0}, {"-5", 0}, {"86,400,001", 0}, {"1e999", 0}};
    char path[] = "/tmp/gb-test-ncu-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
        struct gb_ncu_report *r = NULL;
        const struct unit_case c = {"gpu__time_duration.sum", "msecond", d[i].text, 0};
        double v;
        write_export(path, &c);
        assert_int_equal(gb_ncu_load(path, &r), GB_OK);
        if ((gb_ncu_range(&r->launches[0], c.metric, GB_RANGE_NCU_TIME, &v) == GB_OK) != d[i].ok)
            fail_msg("a duration of %s ms: %s", d[i].text, d[i].ok ? gb_error_message() : "accepted");
        gb_ncu_free(r);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_units), cmocka_unit_test(test_number_forms),
                                       cmocka_unit_test(test_duration_range)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
