/* test_open_regular.c - gb_fopen_regular (util/open_regular.h): a regular
 * file opens and reads; a symbolic link (to a regular file), a FIFO (with no
 * writer: an open that blocked would hang the test), a directory and a
 * missing name do not, each with its errno. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/open_regular.h"

static void test_open_regular(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb-test-openreg-XXXXXX", file[64], link[64], fifo[64], sub[64], none[64], line[16];
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/file", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(none, sizeof none, "%s/none", dir);
    FILE *w = fopen(file, "w");
    assert_non_null(w);
    fputs("points 7\n", w);
    assert_int_equal(fclose(w), 0);
    assert_int_equal(symlink(file, link), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkdir(sub, 0700), 0);

    FILE *f = gb_fopen_regular(file);
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "points 7\n");
    fclose(f);
    errno = 0;
    assert_null(gb_fopen_regular(link));
    assert_int_equal(errno, ELOOP);
    errno = 0;
    assert_null(gb_fopen_regular(fifo));
    assert_int_equal(errno, EINVAL);
    errno = 0;
    assert_null(gb_fopen_regular(sub));
    assert_int_equal(errno, EINVAL);
    errno = 0;
    assert_null(gb_fopen_regular(none));
    assert_int_equal(errno, ENOENT);

    unlink(file);
    unlink(link);
    unlink(fifo);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_regular),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
