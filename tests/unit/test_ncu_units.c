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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_units)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
