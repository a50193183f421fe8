/* The table of clocks (src/measure/clocks.h), without a GPU: the rows
 * gpubound has and what they say they can time; the chain of fallbacks,
 * driven through a table of fake clocks (a clock that cannot be had hands
 * over to its fallback under auto and fails when named; a failure of
 * another kind stops the chain; a clock opened in place of one that
 * refused a launch times one launch a sample); which failures of a
 * point's samples move it to the next clock; the slots where a clock keeps
 * its state on a GPU; the names --timer takes, read from the rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/clocks.h"

/* ---- gpubound's table ---- */

/* The --timer choice of gpubound's clock `name` (what run --timer NAME gives). */
static int choice_of(const char *name)
{
    int c = gb_clock_parse(gb_clocks(), name);
    assert_true(c > GB_TIMER_AUTO);
    return c;
}

static void test_rows(void **state)
{
    (void)state;
    const struct gb_clock_table *tab = gb_clocks();
    const char *names[] = {"profiler", "cupti", "events"};
    assert_int_equal(tab->n, 3);
    for (size_t i = 0; i < tab->n; i++) {
        assert_string_equal(tab->rows[i].name, names[i]); /* auto's order */
        assert_int_equal(gb_clock_choice(tab, &tab->rows[i]), (int)i + 1); /* no enum: the row's place */
        assert_non_null(tab->rows[i].open);
        assert_true(tab->rows[i].can & GB_CLOCK_KERNEL);
        assert_ptr_equal(gb_clock_find(tab, (int)i + 1), &tab->rows[i]);
        assert_ptr_equal(gb_clock_named(tab, names[i]), &tab->rows[i]);
    }
    assert_null(gb_clock_find(tab, GB_TIMER_AUTO));
    assert_null(gb_clock_find(tab, (int)tab->n + 1));
    assert_null(gb_clock_find(tab, -1));
    assert_null(gb_clock_named(tab, NULL));
    assert_null(gb_clock_named(tab, "auto"));
    assert_int_equal(gb_clock_choice(tab, NULL), GB_TIMER_AUTO);
    /* The profiler counts kernels only, one launch a sample; the others
     * time copies and sets and graph batches too. */
    const struct gb_clock *prof = gb_clock_find(tab, choice_of("profiler"));
    assert_int_equal(prof->can, GB_CLOCK_KERNEL);
    assert_non_null(prof->prime);
    assert_non_null(prof->set_aside);
    assert_non_null(prof->holds);
    assert_non_null(prof->release_state);
    unsigned all = GB_CLOCK_KERNEL | GB_CLOCK_NO_KERNEL | GB_CLOCK_BATCH;
    assert_int_equal(gb_clock_find(tab, choice_of("cupti"))->can, all);
    assert_int_equal(gb_clock_find(tab, choice_of("events"))->can, all);
}

/* Auto's chain: profiler, CUPTI, events, then nothing; it ends at a clock
 * that can time anything. */
static void test_chain(void **state)
{
    (void)state;
    const struct gb_clock_table *tab = gb_clocks();
    const struct gb_clock *c = gb_clock_first(tab, GB_TIMER_AUTO);
    int order[8], n = 0;
    for (; c && n < 8; c = gb_clock_next(tab, c))
        order[n++] = gb_clock_choice(tab, c);
    assert_int_equal(n, 3);
    assert_int_equal(order[0], choice_of("profiler"));
    assert_int_equal(order[1], choice_of("cupti"));
    assert_int_equal(order[2], choice_of("events"));
    assert_int_equal(gb_clock_find(tab, order[2])->can, GB_CLOCK_KERNEL | GB_CLOCK_NO_KERNEL | GB_CLOCK_BATCH);
    assert_null(gb_clock_next(tab, NULL));
}

/* A point moves to the next clock only when the profiler, left to auto,
 * says it cannot time the launch. */
static void test_refused(void **state)
{
    (void)state;
    const struct gb_clock_table *tab = gb_clocks();
    const struct gb_clock *prof = gb_clock_named(tab, "profiler");
    const struct gb_clock *cupti = gb_clock_named(tab, "cupti");
    assert_true(gb_clock_refused(tab, prof, GB_TIMER_AUTO, GB_ERR_UNSUPPORTED));
    assert_false(gb_clock_refused(tab, prof, choice_of("profiler"), GB_ERR_UNSUPPORTED)); /* named */
    assert_false(gb_clock_refused(tab, prof, GB_TIMER_AUTO, GB_ERR_CUDA));
    assert_false(gb_clock_refused(tab, prof, GB_TIMER_AUTO, GB_OK));
    assert_false(gb_clock_refused(tab, cupti, GB_TIMER_AUTO, GB_ERR_UNSUPPORTED));
    assert_false(gb_clock_refused(tab, gb_clock_named(tab, "events"), GB_TIMER_AUTO, GB_ERR_UNSUPPORTED));
    assert_false(gb_clock_refused(tab, NULL, GB_TIMER_AUTO, GB_ERR_UNSUPPORTED));
}

/* The event clock opens without touching the GPU (its events are made on
 * first use): opened in place of a refused clock it times one launch a
 * sample, otherwise it batches. */
static void test_events_one_launch(void **state)
{
    (void)state;
    struct gb_gpu g;
    struct gb_timer t;
    memset(&g, 0, sizeof g);
    assert_int_equal(gb_timer_events_open(&g, 0, &t), GB_OK);
    assert_string_equal(t.name, "events");
    assert_int_equal(t.one_launch, 0);
    t.release(t.self);
    assert_int_equal(gb_timer_events_open(&g, GB_CLOCK_REPLACES, &t), GB_OK);
    assert_int_equal(t.one_launch, 1);
    t.release(t.self);
}

/* --timer's values are the rows' names: every row of gpubound's table is
 * named, "auto" is no row, and a table with a new row takes its name. */
static void test_parse(void **state)
{
    (void)state;
    const struct gb_clock_table *tab = gb_clocks();
    char names[128];
    for (size_t i = 0; i < tab->n; i++)
        assert_int_equal(gb_clock_parse(tab, tab->rows[i].name), gb_clock_choice(tab, &tab->rows[i]));
    assert_int_equal(gb_clock_parse(tab, "auto"), GB_TIMER_AUTO);
    assert_int_equal(gb_clock_parse(tab, "gpu"), -1);
    assert_int_equal(gb_clock_parse(tab, ""), -1);
    assert_int_equal(gb_clock_parse(tab, "Events"), -1);
    gb_clock_choices(tab, names, sizeof names);
    assert_string_equal(names, "auto, cupti, events or profiler");

    /* A table with a new row takes its name, and its choice is its place:
     * no enum to extend. */
    const struct gb_clock rows[] = {{.name = "zeta"}, {.name = "alpha"}};
    const struct gb_clock_table two = {rows, 2}, one = {rows, 1}, none = {rows, 0};
    assert_int_equal(gb_clock_parse(&two, "zeta"), 1);
    assert_int_equal(gb_clock_parse(&two, "alpha"), 2);
    assert_ptr_equal(gb_clock_find(&two, gb_clock_parse(&two, "alpha")), &rows[1]);
    assert_int_equal(gb_clock_parse(&one, "alpha"), -1);
    gb_clock_choices(&two, names, sizeof names);
    assert_string_equal(names, "auto, alpha or zeta");
    gb_clock_choices(&one, names, sizeof names);
    assert_string_equal(names, "auto or zeta");
    gb_clock_choices(&none, names, sizeof names);
    assert_string_equal(names, "auto");
    gb_clock_choices(&two, names, 8); /* cut, never past the buffer */
    assert_string_equal(names, "auto, a");
}

/* ---- the chain, over fake clocks ---- */

static char opens[16];     /* the rows tried, in order, by letter */
static int n_opens, releases;
static unsigned last_flags;

static void fake_release(void *self)
{
    (void)self;
    releases++;
}

static enum gb_status fake_open(struct gb_gpu *g, unsigned flags, struct gb_timer *t, char letter,
                                enum gb_status st)
{
    (void)g;
    memset(t, 0, sizeof *t);
    t->release = fake_release;
    opens[n_opens++] = letter;
    last_flags = flags;
    if (st == GB_OK)
        t->name = "c";
    return st == GB_OK ? GB_OK : gb_error_set(st, "clock %c cannot be had", letter);
}

static enum gb_status open_a(struct gb_gpu *g, unsigned f, struct gb_timer *t)
{
    return fake_open(g, f, t, 'a', GB_ERR_UNSUPPORTED);
}

static enum gb_status open_b(struct gb_gpu *g, unsigned f, struct gb_timer *t)
{
    return fake_open(g, f, t, 'b', GB_ERR_UNSUPPORTED);
}

static enum gb_status open_c(struct gb_gpu *g, unsigned f, struct gb_timer *t)
{
    return fake_open(g, f, t, 'c', GB_OK);
}

static enum gb_status open_broken(struct gb_gpu *g, unsigned f, struct gb_timer *t)
{
    return fake_open(g, f, t, 'x', GB_ERR_CUDA);
}

static void reset(void)
{
    memset(opens, 0, sizeof opens);
    n_opens = releases = 0;
    last_flags = 99;
}

/* Auto goes down the chain past each clock that cannot be had, releasing
 * what each left; a named clock is that clock or a failure. */
static void test_open_chain(void **state)
{
    (void)state;
    const struct gb_clock rows[] = {
        {.name = "a", .can = GB_CLOCK_KERNEL, .fallback = "b", .open = open_a},
        {.name = "b", .can = GB_CLOCK_KERNEL, .fallback = "c", .open = open_b},
        {.name = "c", .can = GB_CLOCK_KERNEL | GB_CLOCK_NO_KERNEL, .open = open_c},
    };
    const struct gb_clock_table tab = {rows, 3};
    const struct gb_clock *opened = NULL;
    struct gb_timer t;

    reset();
    assert_int_equal(gb_clock_open(&tab, gb_clock_first(&tab, GB_TIMER_AUTO), GB_TIMER_AUTO, 0, NULL, &t, &opened),
                     GB_OK);
    assert_string_equal(opens, "abc");
    assert_int_equal(releases, 2);
    assert_ptr_equal(opened, &rows[2]);
    assert_int_equal(last_flags, 0);

    reset(); /* named: no fallback */
    assert_int_equal(gb_clock_open(&tab, gb_clock_first(&tab, 1), 1, 0, NULL, &t, &opened), GB_ERR_UNSUPPORTED);
    assert_string_equal(opens, "a");
    assert_int_equal(releases, 0);
    assert_ptr_equal(opened, &rows[0]);

    reset(); /* a refused clock's replacement: its fallback, with the flag, down the chain */
    assert_int_equal(gb_clock_open(&tab, gb_clock_next(&tab, &rows[0]), GB_TIMER_AUTO, GB_CLOCK_REPLACES, NULL, &t,
                                   &opened),
                     GB_OK);
    assert_string_equal(opens, "bc");
    assert_int_equal(last_flags, GB_CLOCK_REPLACES);

    reset(); /* the end of the chain: its failure is the caller's */
    const struct gb_clock last[] = {{.name = "a", .can = GB_CLOCK_KERNEL, .open = open_a}};
    const struct gb_clock_table one = {last, 1};
    assert_int_equal(gb_clock_open(&one, &last[0], GB_TIMER_AUTO, 0, NULL, &t, &opened), GB_ERR_UNSUPPORTED);
    assert_string_equal(opens, "a");

    assert_int_equal(gb_clock_open(&tab, NULL, 7, 0, NULL, &t, &opened), GB_ERR_USAGE);
}

/* A failure other than "cannot be had" stops the chain; a table whose
 * fallbacks loop tries each row once. */
static void test_open_stops(void **state)
{
    (void)state;
    const struct gb_clock rows[] = {
        {.name = "x", .can = GB_CLOCK_KERNEL, .fallback = "c", .open = open_broken},
        {.name = "c", .can = GB_CLOCK_KERNEL, .open = open_c},
    };
    const struct gb_clock_table tab = {rows, 2};
    const struct gb_clock *opened = NULL;
    struct gb_timer t;
    reset();
    assert_int_equal(gb_clock_open(&tab, &rows[0], GB_TIMER_AUTO, 0, NULL, &t, &opened), GB_ERR_CUDA);
    assert_string_equal(opens, "x");
    assert_ptr_equal(opened, &rows[0]);

    const struct gb_clock loop[] = {
        {.name = "a", .can = GB_CLOCK_KERNEL, .fallback = "b", .open = open_a},
        {.name = "b", .can = GB_CLOCK_KERNEL, .fallback = "a", .open = open_b},
    };
    const struct gb_clock_table lt = {loop, 2};
    reset();
    assert_int_equal(gb_clock_open(&lt, &loop[0], GB_TIMER_AUTO, 0, NULL, &t, &opened), GB_ERR_UNSUPPORTED);
    assert_string_equal(opens, "ab");
}

/* ---- a clock's state on a GPU ---- */

/* A GPU has no clock slots until a clock makes them; setting aside what
 * none holds makes none; the slots are released with the GPU, each
 * clock's state by its row. */
static void test_state_slots(void **state)
{
    (void)state;
    const struct gb_clock_table *tab = gb_clocks();
    struct gb_gpu g;
    memset(&g, 0, sizeof g);
    assert_false(gb_clocks_hold(tab, &g));
    gb_clocks_set_aside(tab, &g);
    assert_null(g.clock_state);
    assert_null(gb_clock_state(&g, "profiler", 0));
    assert_null(gb_clock_state(&g, "auto", 1));
    assert_null(gb_clock_state(&g, NULL, 1));
    assert_null(g.clock_state);

    void **prof = gb_clock_state(&g, "profiler", 1);
    void **events = gb_clock_state(&g, "events", 1);
    assert_non_null(prof);
    assert_non_null(events);
    assert_ptr_not_equal(prof, events);
    assert_ptr_equal(gb_clock_state(&g, "profiler", 0), prof);
    assert_null(*prof);
    assert_non_null(g.clock_state_release);
    /* The profiler's state with no profiler open: it holds nothing. */
    *prof = calloc(1, 64);
    assert_non_null(*prof);
    assert_false(gb_timer_profiler_holds(&g));
    assert_false(gb_clocks_hold(tab, &g));
    gb_clocks_set_aside(tab, &g);
    g.clock_state_release(&g);
    assert_null(g.clock_state);
    assert_null(g.clock_state_release);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_refused),     cmocka_unit_test(test_events_one_launch),
        cmocka_unit_test(test_open_chain),  cmocka_unit_test(test_open_stops),
        cmocka_unit_test(test_state_slots), cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
