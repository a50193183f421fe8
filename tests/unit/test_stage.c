/* test_stage.c - a command's outputs staged and moved as a unit
 * (util/stage.h, util/fs.h), on a hostile file system: links planted at
 * output names, at the names of killed commands' stages and temporaries,
 * and renames that fail half-way. Every check reads the files back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/stage.h"

/* Each test works in its own new directory under /tmp. */
struct box {
    char root[64];
};

static char *at(const struct box *b, const char *rel)
{
    static char buf[4][GB_PATH_MAX];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", b->root, rel);
    return buf[k];
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Whether `path` is a regular file (not a link) holding exactly `text`. */
static int holds(const char *path, const char *text)
{
    char buf[256];
    struct stat sb;
    if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return 0;
    FILE *f = fopen(path, "r");
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strcmp(buf, text) == 0;
}

/* The number of entries of `dir` (without . and ..). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* A pid that no process has now (a child that has exited and been reaped). */
static long dead_pid(void)
{
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    assert_true(p > 0);
    waitpid(p, NULL, 0);
    return (long)p;
}

static int setup(void **state)
{
    struct box *b = calloc(1, sizeof *b);
    snprintf(b->root, sizeof b->root, "/tmp/gb-stage-test-XXXXXX");
    if (!b || !mkdtemp(b->root))
        return -1;
    *state = b;
    return 0;
}

static int teardown(void **state)
{
    struct box *b = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", b->root);
    int rc = system(cmd);
    free(b);
    return rc == 0 ? 0 : -1;
}

/* Commit replaces the staged names, leaves the others, and leaves no stage. */
static void test_commit_replaces(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    char p[GB_PATH_MAX + 128];
    mkdir(at(b, "out"), 0777);
    put(at(b, "out/a.txt"), "old a\n");
    put(at(b, "out/b.txt"), "old b\n");
    assert_int_equal(gb_stage_open(&s, at(b, "out")), GB_OK);
    assert_int_equal(gb_stage_path(&s, "a.txt", p, sizeof p), GB_OK);
    put(p, "new a\n");
    assert_int_equal(gb_stage_path(&s, "c.txt", p, sizeof p), GB_OK);
    assert_int_equal(gb_write_file_atomic(p, "new c\n", 6), GB_OK);
    assert_false(holds(at(b, "out/c.txt"), "new c\n")); /* nothing before commit */
    assert_int_equal(gb_stage_commit(&s), GB_OK);
    assert_true(holds(at(b, "out/a.txt"), "new a\n"));
    assert_true(holds(at(b, "out/b.txt"), "old b\n"));
    assert_true(holds(at(b, "out/c.txt"), "new c\n"));
    assert_int_equal(entries(at(b, "out")), 3);
    assert_int_not_equal(gb_stage_path(&s, "../x", p, sizeof p), GB_OK);
}

/* An aborted stage for a directory that did not exist leaves nothing; a
 * committed one makes it. */
static void test_abort_and_make(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    char p[GB_PATH_MAX + 128];
    assert_int_equal(gb_stage_open(&s, at(b, "new/report")), GB_OK);
    assert_int_equal(gb_stage_path(&s, "x.txt", p, sizeof p), GB_OK);
    put(p, "x\n");
    gb_stage_abort(&s);
    assert_int_equal(entries(b->root), 0);
    assert_int_equal(gb_stage_open(&s, at(b, "new/report")), GB_OK);
    assert_int_equal(gb_stage_path(&s, "x.txt", p, sizeof p), GB_OK);
    put(p, "x\n");
    assert_int_equal(gb_stage_commit(&s), GB_OK);
    assert_true(holds(at(b, "new/report/x.txt"), "x\n"));
    assert_int_equal(entries(b->root), 1);
    /* A destination that is a file is refused before anything is made. */
    put(at(b, "file"), "f\n");
    assert_int_equal(gb_stage_open(&s, at(b, "file")), GB_ERR_IO);
    assert_true(holds(at(b, "file"), "f\n"));
}

/* A link planted at an output's name is replaced by the file, never
 * written through: the file it points to stays byte-identical. */
static void test_link_at_output_name(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    char p[GB_PATH_MAX + 128];
    mkdir(at(b, "out"), 0777);
    put(at(b, "victim"), "precious\n");
    assert_int_equal(symlink(at(b, "victim"), at(b, "out/chart.svg")), 0);
    assert_int_equal(symlink(at(b, "victim"), at(b, "out/chart.log")), 0);
    assert_int_equal(gb_stage_open(&s, at(b, "out")), GB_OK);
    assert_int_equal(gb_stage_path(&s, "chart.svg", p, sizeof p), GB_OK);
    put(p, "<svg/>\n");
    assert_int_equal(gb_stage_commit(&s), GB_OK);
    assert_true(holds(at(b, "victim"), "precious\n"));
    assert_true(holds(at(b, "out/chart.svg"), "<svg/>\n"));
    char link[GB_PATH_MAX];
    ssize_t n = readlink(at(b, "out/chart.log"), link, sizeof link - 1);
    assert_true(n > 0); /* not ours to touch: left as it was */
}

/* A rename that fails half-way (the last name is a non-empty directory)
 * puts every earlier file back: the destination is byte-identical, the
 * directory untouched, and the message names the file and says nothing was
 * written. */
static void test_failed_rename_rolls_back(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    char p[GB_PATH_MAX + 128];
    const char *names[] = {"a.md", "b.html", "c.svg", "d.gp", "e.png", "z.csv"};
    mkdir(at(b, "out"), 0777);
    put(at(b, "out/a.md"), "old a\n");
    put(at(b, "out/c.svg"), "old c\n");
    put(at(b, "victim"), "precious\n");
    assert_int_equal(symlink(at(b, "victim"), at(b, "out/d.gp")), 0);
    mkdir(at(b, "out/z.csv"), 0777);
    put(at(b, "out/z.csv/keep"), "keep\n");
    assert_int_equal(gb_stage_open(&s, at(b, "out")), GB_OK);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        assert_int_equal(gb_stage_path(&s, names[i], p, sizeof p), GB_OK);
        put(p, "new\n");
    }
    assert_int_equal(gb_stage_commit(&s), GB_ERR_IO);
    const char *msg = gb_error_message();
    assert_non_null(strstr(msg, "z.csv"));
    assert_non_null(strstr(msg, "nothing was written to"));
    assert_true(holds(at(b, "out/a.md"), "old a\n"));
    assert_true(holds(at(b, "out/c.svg"), "old c\n"));
    assert_true(holds(at(b, "out/z.csv/keep"), "keep\n"));
    assert_true(holds(at(b, "victim"), "precious\n"));
    struct stat sb;
    assert_int_equal(lstat(at(b, "out/d.gp"), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode)); /* the link is back where it was */
    assert_int_equal(entries(at(b, "out")), 4); /* a.md c.svg d.gp z.csv: no new name, no stage */
}

/* A staged entry that is not a regular file is refused before anything
 * moves, and the directories commit would have made are not left behind. */
static void test_refused_entry_leaves_nothing(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    char p[GB_PATH_MAX + 128];
    assert_int_equal(gb_stage_open(&s, at(b, "made/deeper")), GB_OK);
    assert_int_equal(gb_stage_path(&s, "ok.txt", p, sizeof p), GB_OK);
    put(p, "ok\n");
    assert_int_equal(gb_stage_path(&s, "sub", p, sizeof p), GB_OK);
    mkdir(p, 0777);
    assert_int_equal(gb_stage_commit(&s), GB_ERR_IO);
    assert_non_null(strstr(gb_error_message(), "not a regular file"));
    assert_int_equal(entries(b->root), 0);
}

/* A FIFO at an output's name is never replaced: the commit refuses it and
 * moves nothing, the atomic writer and the in-place writer refuse it, and
 * none of them waits on it. */
static void test_special_file_refused(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    struct gb_atomic_file a;
    struct stat sb;
    char p[GB_PATH_MAX + 128];
    mkdir(at(b, "out"), 0777);
    put(at(b, "out/a.txt"), "old a\n");
    assert_int_equal(mkfifo(at(b, "out/b.txt"), 0666), 0);
    assert_int_equal(gb_stage_open(&s, at(b, "out")), GB_OK);
    assert_int_equal(gb_stage_path(&s, "a.txt", p, sizeof p), GB_OK);
    put(p, "new a\n");
    assert_int_equal(gb_stage_path(&s, "b.txt", p, sizeof p), GB_OK);
    put(p, "new b\n");
    assert_int_equal(gb_stage_commit(&s), GB_ERR_IO);
    assert_non_null(strstr(gb_error_message(), "it is a FIFO, not a regular file"));
    assert_true(holds(at(b, "out/a.txt"), "old a\n")); /* a.txt put back */
    assert_int_equal(lstat(at(b, "out/b.txt"), &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    assert_int_equal(entries(at(b, "out")), 2);
    assert_int_equal(gb_stage_open_file(&s, at(b, "out/b.txt"), p, sizeof p), GB_ERR_IO);
    assert_int_equal(gb_atomic_open(&a, at(b, "out/b.txt"), "w"), GB_ERR_IO);
    errno = 0;
    assert_null(gb_fopen_nofollow(at(b, "out/b.txt")));
    assert_int_equal(errno, EINVAL);
    assert_int_equal(entries(at(b, "out")), 2);
}

/* What a signal handler removes: every open stage, its destination named;
 * the stage objects then abort harmlessly. */
static void test_remove_open(void **state)
{
    struct box *b = *state;
    struct gb_stage s1, s2;
    char p[GB_PATH_MAX + 128], dir[GB_PATH_MAX];
    mkdir(at(b, "one"), 0777);
    assert_int_equal(gb_stage_open(&s1, at(b, "one")), GB_OK);
    assert_int_equal(gb_stage_open(&s2, at(b, "two/new")), GB_OK);
    assert_int_equal(gb_stage_path(&s1, "x.txt", p, sizeof p), GB_OK);
    put(p, "x\n");
    assert_int_equal(gb_stage_path(&s2, "y.txt", p, sizeof p), GB_OK);
    put(p, "y\n");
    assert_int_equal(gb_stage_remove_open(dir, sizeof dir), 2);
    assert_string_equal(dir, at(b, "one"));
    assert_int_equal(entries(at(b, "one")), 0);
    assert_int_equal(entries(b->root), 1); /* one/, no stage beside it */
    gb_stage_abort(&s1);
    gb_stage_abort(&s2);
    assert_int_equal(gb_stage_remove_open(dir, sizeof dir), 0);
    assert_string_equal(dir, "");
}

/* Leftovers: a dead process's real stage directory of this host goes; a
 * link of that name (to a directory full of files), another host's stage,
 * a live process's stage and a stage owned by nobody we know stay, and no
 * file behind a link is touched. */
static void test_sweep_follows_no_link(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    char host[16], name[128], other[128], live[128], inner[128];
    long dead = dead_pid();
    gb_fs_host_tag(host, sizeof host);
    mkdir(at(b, "victim"), 0777);
    put(at(b, "victim/data.csv"), "precious\n");
    mkdir(at(b, "out"), 0777);
    snprintf(name, sizeof name, "out/.gb-stage.%ld.%sLiNk01", dead, host);
    assert_int_equal(symlink(at(b, "victim"), at(b, name)), 0);
    snprintf(inner, sizeof inner, "out/.gb-stage.%ld.%sDeAd01", dead, host);
    mkdir(at(b, inner), 0700);
    char link_in[160];
    snprintf(link_in, sizeof link_in, "%s/data", inner);
    assert_int_equal(symlink(at(b, "victim"), at(b, link_in)), 0);
    snprintf(link_in, sizeof link_in, "%s/half.md", inner);
    put(at(b, link_in), "half\n");
    snprintf(other, sizeof other, "out/.gb-stage.%ld.%06xOtHr01", dead, (unsigned)(strtoul(host, NULL, 16) ^ 1));
    mkdir(at(b, other), 0700);
    snprintf(live, sizeof live, "out/.gb-stage.%ld.%sLiVe01", (long)getpid(), host);
    mkdir(at(b, live), 0700);
    char foreign[128];
    int n_left = 3;
    snprintf(foreign, sizeof foreign, "out/.gb-stage.%ld.%sFoRe01", dead, host);
    if (geteuid() == 0) { /* another user's stage, when this test may make one */
        mkdir(at(b, foreign), 0700);
        assert_int_equal(chown(at(b, foreign), 65534, 65534), 0);
        n_left++;
    }
    assert_int_equal(gb_stage_open(&s, at(b, "out")), GB_OK);
    gb_stage_abort(&s);
    struct stat sb;
    if (n_left == 4)
        assert_int_equal(lstat(at(b, foreign), &sb), 0);
    assert_int_equal(lstat(at(b, name), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_true(holds(at(b, "victim/data.csv"), "precious\n"));
    assert_int_equal(entries(at(b, "victim")), 1);
    assert_int_not_equal(lstat(at(b, inner), &sb), 0); /* the dead stage is gone, link and all */
    assert_int_equal(lstat(at(b, other), &sb), 0);
    assert_int_equal(lstat(at(b, live), &sb), 0);
    assert_int_equal(entries(at(b, "out")), n_left);
}

/* In the nearest existing parent of a destination that does not exist:
 * the same sweep, the same refusal to follow a link. */
static void test_sweep_in_parent(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    char host[16], name[128];
    long dead = dead_pid();
    gb_fs_host_tag(host, sizeof host);
    mkdir(at(b, "victim"), 0777);
    put(at(b, "victim/run.json"), "{}\n");
    snprintf(name, sizeof name, ".gb-stage.%ld.%sLiNk02", dead, host);
    assert_int_equal(symlink(at(b, "victim"), at(b, name)), 0);
    assert_int_equal(gb_stage_open(&s, at(b, "not/yet/there")), GB_OK);
    gb_stage_abort(&s);
    assert_true(holds(at(b, "victim/run.json"), "{}\n"));
    assert_int_equal(entries(b->root), 2);
}

/* A single file written atomically: a link planted at the temporary's
 * name (pid and host are guessable) is refused, not followed; a dead
 * writer's temporary is swept only when it is a regular file. */
static void test_atomic_temporary(void **state)
{
    struct box *b = *state;
    char host[16], tmp[160], dead_tmp[160], dead_link[160];
    long dead = dead_pid();
    gb_fs_host_tag(host, sizeof host);
    put(at(b, "victim"), "precious\n");
    snprintf(tmp, sizeof tmp, ".m.json.%ld.%s.tmp", (long)getpid(), host);
    assert_int_equal(symlink(at(b, "victim"), at(b, tmp)), 0);
    assert_int_equal(gb_write_file_atomic(at(b, "m.json"), "{}\n", 3), GB_ERR_IO);
    assert_true(holds(at(b, "victim"), "precious\n"));
    assert_int_equal(access(at(b, "m.json"), F_OK), -1);
    unlink(at(b, tmp));
    snprintf(dead_tmp, sizeof dead_tmp, ".m.json.%ld.%s.tmp", dead, host);
    put(at(b, dead_tmp), "half\n");
    snprintf(dead_link, sizeof dead_link, ".n.json.%ld.%s.tmp", dead, host);
    assert_int_equal(symlink(at(b, "victim"), at(b, dead_link)), 0);
    assert_int_equal(gb_write_file_atomic(at(b, "m.json"), "{}\n", 3), GB_OK);
    assert_int_equal(gb_write_file_atomic(at(b, "n.json"), "{}\n", 3), GB_OK);
    assert_int_equal(access(at(b, dead_tmp), F_OK), -1);
    struct stat sb;
    assert_int_equal(lstat(at(b, dead_link), &sb), 0); /* a link is never ours */
    assert_true(holds(at(b, "victim"), "precious\n"));
    assert_true(holds(at(b, "m.json"), "{}\n"));
}

/* gb_stage_fail names staged paths by their final names and says nothing
 * was written; the stage is gone. */
static void test_fail_message(void **state)
{
    struct box *b = *state;
    struct gb_stage s;
    char p[GB_PATH_MAX + 128], want[GB_PATH_MAX + 64];
    assert_int_equal(gb_stage_open(&s, at(b, "out")), GB_OK);
    assert_int_equal(gb_stage_path(&s, "x.gp", p, sizeof p), GB_OK);
    put(p, "x\n");
    gb_error_set(GB_ERR_IO, "gnuplot failed on %s: boom", p);
    assert_int_equal(gb_stage_fail(&s, GB_ERR_IO), GB_ERR_IO);
    snprintf(want, sizeof want, "gnuplot failed on %s/out/x.gp: boom (nothing was written to %s/out)", b->root,
             b->root);
    assert_string_equal(gb_error_message(), want);
    assert_int_equal(entries(b->root), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commit_replaces, setup, teardown),
        cmocka_unit_test_setup_teardown(test_abort_and_make, setup, teardown),
        cmocka_unit_test_setup_teardown(test_link_at_output_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_rename_rolls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_entry_leaves_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_special_file_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_remove_open, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sweep_follows_no_link, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sweep_in_parent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomic_temporary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fail_message, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
