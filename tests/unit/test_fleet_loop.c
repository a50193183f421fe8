/* test_fleet_loop.c - the fleet's loop in the library
 * (gpubound/fleet_loop.h) on a machine without a GPU: a job of one
 * prepares, measures nothing, tells how its member ended and finishes
 * with its part; a refused run directory stops it before any member runs;
 * --all-devices stops before preparing when there is no GPU to count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gpubound/fleet.h"
#include "gpubound/fleet_loop.h"
#include "gpubound/gpu.h"

struct calls {
    char order[64];
    int prepare_rc, own_exit;
    size_t parts;
    enum gb_fleet_state state;
};

static int prepare(void *ctx)
{
    struct calls *c = ctx;
    strcat(c->order, "P");
    return c->prepare_rc;
}

static void unprepare(void *ctx)
{
    strcat(((struct calls *)ctx)->order, "U");
}

static void ended(void *ctx, const struct gb_fleet_who *who, const struct gb_fleet_part *part)
{
    struct calls *c = ctx;
    assert_string_equal(who->what, "rank");
    assert_int_equal(who->member, 0);
    assert_int_equal(who->size, 1);
    c->state = part->m.state;
    strcat(c->order, "E");
}

static int failed(void *ctx, enum gb_status st, const char *what, const char *todo)
{
    (void)todo, (void)what;
    strcat(((struct calls *)ctx)->order, "X");
    return gb_status_exit_code(st);
}

static int finish(void *ctx, struct gb_fleet_part *parts, size_t n, int own_exit)
{
    struct calls *c = ctx;
    strcat(c->order, "F");
    c->parts = n;
    c->own_exit = own_exit;
    assert_int_equal(parts[0].m.rank, 0);
    return own_exit;
}

static int no_gpu_here(void)
{
    int n = 0;
    enum gb_status st = gb_device_count(&n);
    gb_error_clear();
    return st != GB_OK || n == 0;
}

static void setup(struct gb_plan *plan, struct calls *c, struct gb_fleet_loop_opts *o)
{
    const char *sel[] = {"bandwidth/read"};
    memset(c, 0, sizeof *c);
    c->prepare_rc = -1;
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 1, plan), GB_OK);
    memset(o, 0, sizeof *o);
    o->command_line = "test_fleet_loop";
    o->quick = 1;
    o->device = -1;
    gb_measure_opts_default(&o->measure);
    o->ended = ended;
    o->failed = failed;
    o->prepare = prepare;
    o->unprepare = unprepare;
    o->finish = finish;
    o->ctx = c;
}

static void job_of_one(void **state)
{
    (void)state;
    if (!no_gpu_here())
        skip();
    struct gb_plan plan;
    struct calls c;
    struct gb_fleet_loop_opts o;
    int rc = -1;
    setup(&plan, &c, &o);
    assert_int_equal(gb_fleet_loop_mpi(&plan, &o, &rc), GB_OK);
    assert_string_equal(c.order, "PEF");
    assert_int_equal(c.state, GB_FLEET_NO_GPU);
    assert_int_equal(c.parts, 1);
    assert_int_equal(c.own_exit, 3);
    assert_int_equal(rc, 3);

    c.order[0] = '\0';
    c.prepare_rc = 2;  /* the run directory refused: nothing measured */
    assert_int_equal(gb_fleet_loop_mpi(&plan, &o, &rc), GB_OK);
    assert_string_equal(c.order, "P");
    assert_int_equal(rc, 2);
    gb_plan_release(&plan);
}

static void all_devices_without_a_gpu(void **state)
{
    (void)state;
    if (!no_gpu_here())
        skip();
    struct gb_plan plan;
    struct calls c;
    struct gb_fleet_loop_opts o;
    int rc = -1;
    setup(&plan, &c, &o);
    assert_int_equal(gb_fleet_loop_devices(&plan, &o, &rc), GB_ERR_NO_GPU);
    assert_string_equal(c.order, "");  /* nothing prepared, nothing to undo */
    gb_plan_release(&plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(job_of_one),
        cmocka_unit_test(all_devices_without_a_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
