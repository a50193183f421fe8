/* The cache of spec problems on the device (src/suites/spec_cache.c), with
 * a fake allocator that hands out distinct addresses and can run out:
 * - two problems (another key, or another bench) never share a buffer, and
 *   the same problem gets its own buffers back;
 * - within the budget, the least recently used problem not in use is
 *   evicted first, never one in use;
 * - an allocation the device refuses evicts and tries again, and fails
 *   with the problem's size when nothing is left to evict;
 * - a problem whose sizes changed is made again;
 * - run.json records the budget when a spec point ran, and only then. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "results/json.h"
#include "suites/spec_cache.h"

#define MAX_LIVE 256

struct fake_dev {
    CUdeviceptr next;
    size_t capacity, used;       /* a device of `capacity` bytes */
    CUdeviceptr live[MAX_LIVE];
    size_t size[MAX_LIVE];
    int n_live, frees;
};

static enum gb_status fake_alloc(void *ctx, size_t bytes, CUdeviceptr *out)
{
    struct fake_dev *d = ctx;
    *out = 0;
    if (d->used + bytes > d->capacity)
        return gb_error_set(GB_ERR_DEVICE_OOM, "out of device memory: asked for %zu bytes", bytes);
    assert_true(d->n_live < MAX_LIVE);
    d->next += 0x1000 + bytes;
    d->live[d->n_live] = d->next;
    d->size[d->n_live++] = bytes;
    d->used += bytes;
    *out = d->next;
    return GB_OK;
}

static void fake_free(void *ctx, CUdeviceptr p)
{
    struct fake_dev *d = ctx;
    for (int i = 0; i < d->n_live; i++)
        if (d->live[i] == p) {
            d->used -= d->size[i];
            d->live[i] = d->live[--d->n_live];
            d->size[i] = d->size[d->n_live];
            d->frees++;
            return;
        }
    fail_msg("freed %llx, which is not allocated", (unsigned long long)p);
}

static void setup(struct gb_spec_cache *c, struct fake_dev *d, size_t capacity, size_t budget)
{
    memset(c, 0, sizeof *c);
    memset(d, 0, sizeof *d);
    d->capacity = capacity;
    c->budget = budget;
    c->alloc = fake_alloc;
    c->free = fake_free;
    c->ctx = d;
}

/* An input of `n` bytes (arg 0) and an output with an init (arg 1). */
static void need_of(struct gb_spec_need *need, size_t n)
{
    memset(need, 0, sizeof *need);
    need->buffer[0] = need->buffer[1] = 1;
    need->bytes[0] = need->bytes[1] = n;
    need->init[1] = need->ref[1] = 1;
}

/* Every buffer of a problem: its data, init and ref. */
static int buffers(const struct gb_spec_problem *p, CUdeviceptr *out)
{
    int n = 0;
    for (int i = 0; i < GB_SPEC_MAX_ARGS; i++) {
        if (p->data[i])
            out[n++] = p->data[i];
        if (p->init[i])
            out[n++] = p->init[i];
        if (p->ref[i])
            out[n++] = p->ref[i];
    }
    return n;
}

static void assert_disjoint(const struct gb_spec_problem *a, const struct gb_spec_problem *b)
{
    CUdeviceptr x[3 * GB_SPEC_MAX_ARGS], y[3 * GB_SPEC_MAX_ARGS];
    int nx = buffers(a, x), ny = buffers(b, y);
    assert_int_equal(nx, 4);
    assert_int_equal(ny, 4);
    for (int i = 0; i < nx; i++)
        for (int k = 0; k < ny; k++)
            if (x[i] == y[k])
                fail_msg("problems \"%s\" and \"%s\" share buffer %llx", a->key, b->key, (unsigned long long)x[i]);
}

static void test_keyed_by_problem(void **state)
{
    (void)state;
    struct gb_spec_cache c;
    struct fake_dev d;
    struct gb_spec_need need;
    struct gb_spec_problem *a, *b, *other_bench, *again;
    int fresh;
    setup(&c, &d, 1 << 30, 1 << 30);
    need_of(&need, 4096);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=512", &need, &a, &fresh), GB_OK);
    assert_int_equal(fresh, 1);
    a->made = a->ref_made = 1;
    gb_spec_cache_done(a);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=1024", &need, &b, &fresh), GB_OK);
    assert_int_equal(fresh, 1);
    assert_false(b->made || b->ref_made);
    assert_disjoint(a, b);
    gb_spec_cache_done(b);
    /* the same key of another bench is another problem */
    assert_int_equal(gb_spec_cache_get(&c, 2, "n=512", &need, &other_bench, &fresh), GB_OK);
    assert_int_equal(fresh, 1);
    assert_disjoint(a, other_bench);
    assert_disjoint(b, other_bench);
    gb_spec_cache_done(other_bench);
    /* the first problem again: its own buffers, inputs and reference */
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=512", &need, &again, &fresh), GB_OK);
    assert_int_equal(fresh, 0);
    assert_ptr_equal(again, a);
    assert_true(again->made && again->ref_made);
    assert_int_equal(c.made, 3);
    assert_int_equal(c.evicted, 0);
    assert_int_equal(c.held, 3 * 4 * 4096);
    gb_spec_cache_done(again);
    gb_spec_cache_clear(&c);
    assert_int_equal(d.n_live, 0);
    assert_int_equal(c.held, 0);
}

static void test_budget_lru(void **state)
{
    (void)state;
    struct gb_spec_cache c;
    struct fake_dev d;
    struct gb_spec_need need;
    struct gb_spec_problem *p[4];
    int fresh;
    /* room for two problems of 4 x 1000 bytes */
    setup(&c, &d, 1 << 30, 8000);
    need_of(&need, 1000);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=1", &need, &p[0], &fresh), GB_OK);
    gb_spec_cache_done(p[0]);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=2", &need, &p[1], &fresh), GB_OK);
    gb_spec_cache_done(p[1]);
    /* n=1 used again: n=2 is now the least recently used */
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=1", &need, &p[0], &fresh), GB_OK);
    assert_int_equal(fresh, 0);
    gb_spec_cache_done(p[0]);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=3", &need, &p[2], &fresh), GB_OK);
    assert_int_equal(c.evicted, 1);
    assert_non_null(gb_spec_cache_find(&c, 1, "n=1"));
    assert_null(gb_spec_cache_find(&c, 1, "n=2"));
    assert_true(c.held <= c.budget);
    /* n=3 in use: a fourth evicts n=1, never n=3 */
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=4", &need, &p[3], &fresh), GB_OK);
    assert_null(gb_spec_cache_find(&c, 1, "n=1"));
    assert_ptr_equal(gb_spec_cache_find(&c, 1, "n=3"), p[2]);
    assert_disjoint(p[2], p[3]);
    /* both in use: a fifth goes over the budget rather than evict them */
    struct gb_spec_problem *q;
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=5", &need, &q, &fresh), GB_OK);
    assert_int_equal(c.held, 12000);
    assert_int_equal(d.used, 12000);
    gb_spec_cache_clear(&c);
    assert_int_equal(d.n_live, 0);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    struct gb_spec_cache c;
    struct fake_dev d;
    struct gb_spec_need need;
    struct gb_spec_problem *a, *b;
    int fresh;
    /* the budget says yes, the device has room for one problem only */
    setup(&c, &d, 5000, 1 << 30);
    need_of(&need, 1000);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=1", &need, &a, &fresh), GB_OK);
    gb_spec_cache_done(a);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=2", &need, &b, &fresh), GB_OK);
    assert_int_equal(c.evicted, 1);
    assert_null(gb_spec_cache_find(&c, 1, "n=1"));
    /* in use, nothing to evict: the point fails with a clear message and nothing half made is kept */
    need_of(&need, 2000);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=9", &need, &a, &fresh), GB_ERR_DEVICE_OOM);
    assert_null(a);
    assert_non_null(strstr(gb_error_message(), "the problem n=9 needs"));
    assert_non_null(strstr(gb_error_message(), "make the problem smaller"));
    assert_null(gb_spec_cache_find(&c, 1, "n=9"));
    assert_int_equal(d.used, 4000);
    gb_spec_cache_clear(&c);
    assert_int_equal(d.n_live, 0);
}

static void test_sizes_changed(void **state)
{
    (void)state;
    struct gb_spec_cache c;
    struct fake_dev d;
    struct gb_spec_need need;
    struct gb_spec_problem *a, *b;
    int fresh;
    setup(&c, &d, 1 << 30, 1 << 30);
    need_of(&need, 1000);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=1", &need, &a, &fresh), GB_OK);
    a->made = 1;
    gb_spec_cache_done(a);
    need_of(&need, 1024);
    assert_int_equal(gb_spec_cache_get(&c, 1, "n=1", &need, &b, &fresh), GB_OK);
    assert_int_equal(fresh, 1);
    assert_false(b->made);
    assert_int_equal(b->need.bytes[0], 1024);
    assert_int_equal(d.n_live, 4);
    gb_spec_cache_done(b);
    gb_spec_cache_clear(&c);
    assert_true(gb_spec_cache_new_id() != gb_spec_cache_new_id());
    assert_int_equal(gb_spec_cache_budget(1000), 500);
}

static void test_run_json_budget(void **state)
{
    (void)state;
    static struct gb_run_info in;
    memset(&in, 0, sizeof in);
    json_t *o = gb_run_info_to_json(&in);
    assert_non_null(o);
    assert_null(json_object_get(o, "spec_data"));
    json_decref(o);
    in.spec_budget_bytes = 40LL << 30;
    in.spec_problems = 3;
    in.spec_evictions = 1;
    o = gb_run_info_to_json(&in);
    json_t *sd = json_object_get(o, "spec_data");
    assert_non_null(sd);
    assert_true(json_number_value(json_object_get(sd, "budget_bytes")) == (double)(40LL << 30));
    assert_int_equal(json_integer_value(json_object_get(sd, "problems_made")), 3);
    assert_int_equal(json_integer_value(json_object_get(sd, "problems_evicted")), 1);
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keyed_by_problem),
        cmocka_unit_test(test_budget_lru),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_sizes_changed),
        cmocka_unit_test(test_run_json_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
