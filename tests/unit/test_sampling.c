/* The sampling loop of the harness, driven through the timer seam by a fake
 * clock: it stops when the stopping rule holds, stops at the caps, says
 * whether the rule was met, and keeps batch and per-kernel durations apart. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "measure/clocks.h"
#include "measure/sampling.h"

#define FAKE_PENDING 8

/* A clock that hands out durations from a function of the sample's index,
 * and logs what it was asked to do: p(repare) b(egin) r(un) e(nd) c(ollect). */
struct fake {
    double (*duration)(int i);   /* duration of sample (or kernel) i, in ns */
    int per_sample;              /* durations per begin/end pair */
    int next;                    /* index of the next duration */
    int pending, open;
    int begins, runs, prepares, collects;
    int untimed_ok;              /* warm-up: launches outside a timed span are expected */
    char log[4096];
    int log_n;
};

static void fake_log(struct fake *f, char c)
{
    if (f->log_n < (int)sizeof f->log - 1)
        f->log[f->log_n++] = c;
}

static enum gb_status fake_begin(void *self)
{
    struct fake *f = self;
    assert_false(f->open);
    assert_true(f->pending < FAKE_PENDING);
    f->open = 1;
    f->begins++;
    fake_log(f, 'b');
    return GB_OK;
}

static enum gb_status fake_end(void *self)
{
    struct fake *f = self;
    assert_true(f->open);
    f->open = 0;
    f->pending++;
    fake_log(f, 'e');
    return GB_OK;
}

static enum gb_status fake_collect(void *self, double *ns, int cap, int *n)
{
    struct fake *f = self;
    int k = f->pending * f->per_sample;
    assert_true(k <= cap);
    for (int i = 0; i < k; i++)
        ns[i] = f->duration(f->next++);
    *n = k;
    f->pending = 0;
    f->collects++;
    fake_log(f, 'c');
    return GB_OK;
}

static enum gb_status fake_prepare(void *ctx)
{
    struct fake *f = ctx;
    f->prepares++;
    fake_log(f, 'p');
    return GB_OK;
}

static enum gb_status fake_run(void *ctx)
{
    struct fake *f = ctx;
    assert_true(f->open || f->untimed_ok); /* samples' work is inside the timed span */
    f->runs++;
    fake_log(f, 'r');
    return GB_OK;
}

static void fake_init(struct fake *f, struct gb_timer *t, struct gb_sample_work *w, double (*d)(int),
                      enum gb_timer_span span, int batch)
{
    memset(f, 0, sizeof *f);
    memset(t, 0, sizeof *t);
    memset(w, 0, sizeof *w);
    f->duration = d;
    f->per_sample = span == GB_TIMER_PER_KERNEL ? batch : 1;
    t->name = "fake";
    t->span = span;
    t->max_pending = FAKE_PENDING;
    t->self = f;
    t->begin = fake_begin;
    t->end = fake_end;
    t->collect = fake_collect;
    w->run = fake_run;
    w->ctx = f;
    w->batch = batch;
}

static void opts(struct gb_measure_opts *o, double rel_ci, int min_samples, int max_samples, double max_time_s)
{
    gb_measure_opts_default(o);
    o->rel_ci = rel_ci;
    o->min_samples = min_samples;
    o->max_samples = max_samples;
    o->max_time_s = max_time_s;
}

static double constant_1000(int i)
{
    (void)i;
    return 1000.0;
}

/* Far apart forever: the median's CI never gets narrow. */
static double noisy(int i)
{
    return i % 2 ? 1000.0 : 3000.0;
}

/* Noisy at first, then steady: the rule holds only after some chunks. */
static double settling(int i)
{
    return i < 12 ? (i % 2 ? 1000.0 : 2000.0) : 1500.0 + (i % 3);
}

static void test_stops_when_rule_holds(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    memset(&s, 0, sizeof s);
    opts(&o, 0.005, 10, 5000, 100.0);
    fake_init(&f, &t, &w, constant_1000, GB_TIMER_PER_SAMPLE, 1);
    assert_int_equal(gb_sample_until(&t, &w, &o, 1000.0, &s), GB_OK);
    /* Chunks of FAKE_PENDING; the first check is at 16 >= 10 samples. */
    assert_int_equal(s.n, 16);
    assert_int_equal(f.runs, 16);
    assert_int_equal(f.collects, 2);
    assert_true(s.converged);
    assert_true(s.stats.median == 1000.0);
    assert_true(s.timed_ns == 16000.0);
    gb_sample_set_release(&s);
}

static void test_stops_at_first_chunk_where_rule_holds(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    double x[4096];
    int expect = 0;
    for (int i = 0; i < 4096; i++)
        x[i] = settling(i);
    /* Where the rule first holds at a chunk boundary, by the statistics alone. */
    for (int n = FAKE_PENDING; n <= 4096 && !expect; n += FAKE_PENDING) {
        struct gb_sample_stats st;
        if (n < 10)
            continue;
        assert_int_equal(gb_stats_compute(x, n, &st), GB_OK);
        if (gb_stats_converged(&st, 0.005))
            expect = n;
    }
    assert_true(expect > 16); /* not at the first check: the loop must go on */
    memset(&s, 0, sizeof s);
    opts(&o, 0.005, 10, 5000, 100.0);
    fake_init(&f, &t, &w, settling, GB_TIMER_PER_SAMPLE, 1);
    assert_int_equal(gb_sample_until(&t, &w, &o, 1000.0, &s), GB_OK);
    assert_int_equal(s.n, expect);
    assert_true(s.converged);
    gb_sample_set_release(&s);
}

/* Samples far longer than chunk_s: the first min_samples are one chunk (one
 * collect), then one sample a chunk, and the rule is checked from
 * min_samples on exactly as before. */
static void test_min_samples_one_chunk(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    memset(&s, 0, sizeof s);
    opts(&o, 0.005, 6, 200, 100.0);
    o.chunk_s = 0.001;
    fake_init(&f, &t, &w, constant_1000, GB_TIMER_PER_SAMPLE, 1);
    assert_int_equal(gb_sample_until(&t, &w, &o, 4e6, &s), GB_OK);
    assert_int_equal(s.n, 6);
    assert_int_equal(f.collects, 1);
    assert_true(s.converged);
    gb_sample_set_release(&s);
    /* Never converging: 6 in the first chunk, then one each up to the cap. */
    memset(&s, 0, sizeof s);
    opts(&o, 1e-9, 6, 9, 100.0);
    o.chunk_s = 0.001;
    fake_init(&f, &t, &w, noisy, GB_TIMER_PER_SAMPLE, 1);
    assert_int_equal(gb_sample_until(&t, &w, &o, 4e6, &s), GB_OK);
    assert_int_equal(s.n, 9);
    assert_int_equal(f.collects, 4);
    gb_sample_set_release(&s);
    /* min_samples beyond the timer's pending limit: chunks of that limit. */
    memset(&s, 0, sizeof s);
    opts(&o, 0.005, 3 * FAKE_PENDING, 200, 100.0);
    o.chunk_s = 0.001;
    fake_init(&f, &t, &w, constant_1000, GB_TIMER_PER_SAMPLE, 1);
    assert_int_equal(gb_sample_until(&t, &w, &o, 4e6, &s), GB_OK);
    assert_int_equal(s.n, 3 * FAKE_PENDING);
    assert_int_equal(f.collects, 3);
    gb_sample_set_release(&s);
}

static void test_stops_at_sample_cap(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    memset(&s, 0, sizeof s);
    opts(&o, 1e-9, 10, 43, 100.0);
    fake_init(&f, &t, &w, noisy, GB_TIMER_PER_SAMPLE, 1);
    assert_int_equal(gb_sample_until(&t, &w, &o, 1000.0, &s), GB_OK);
    assert_int_equal(s.n, 43); /* the last chunk is cut to the cap */
    assert_int_equal(f.runs, 43);
    assert_false(s.converged);
    assert_int_equal(s.stats.n, 43);
    gb_sample_set_release(&s);
}

static double skewed3(int i)
{
    return i == 2 ? 1300.0 : 1000.0;
}

/* The reported median is Harrell-Davis's, not the middle sample the stopping
 * rule uses: for 1000, 1000, 1300 the Beta(2, 2) weights of the three ranks
 * are F(1/3) = 7/27, F(2/3) - F(1/3) = 13/27 and 7/27 (F(x) = 3x^2 - 2x^3),
 * so the median is (20 * 1000 + 7 * 1300) / 27 = 29100 / 27, not 1000. */
static void test_final_median_is_harrell_davis(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    memset(&s, 0, sizeof s);
    opts(&o, 1e-9, 3, 3, 100.0);
    fake_init(&f, &t, &w, skewed3, GB_TIMER_PER_SAMPLE, 1);
    assert_int_equal(gb_sample_until(&t, &w, &o, 1000.0, &s), GB_OK);
    assert_int_equal(s.n, 3);
    assert_true(fabs(s.stats.median - 29100.0 / 27.0) < 1e-9);
    gb_sample_set_release(&s);
}

static void test_stops_at_time_cap(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    memset(&s, 0, sizeof s);
    opts(&o, 1e-9, 10, 5000, 0.0);
    fake_init(&f, &t, &w, noisy, GB_TIMER_PER_SAMPLE, 1);
    assert_int_equal(gb_sample_until(&t, &w, &o, 1000.0, &s), GB_OK);
    /* The time cap is checked once min_samples are in. */
    assert_int_equal(s.n, 16);
    assert_false(s.converged);
    gb_sample_set_release(&s);
}

/* Samples of 1 us, three to a chunk (chunk_s), until the stopping rule:
 * the fake's log of begin/end/collect/prepare steps and the samples taken. */
static int sample_three_per_chunk(struct fake *f, enum gb_timer_span span, int shared_session, int prepare)
{
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    memset(&s, 0, sizeof s);
    opts(&o, 0.005, 10, 5000, 100.0);
    o.chunk_s = 3.5e-6;
    fake_init(f, &t, &w, constant_1000, span, 1);
    t.shared_session = shared_session;
    if (prepare)
        w.prepare = fake_prepare;
    assert_int_equal(gb_sample_until(&t, &w, &o, 1000.0, &s), GB_OK);
    f->log[f->log_n] = '\0';
    int n = s.n;
    gb_sample_set_release(&s);
    return n;
}

static void test_chunk_follows_chunk_s(void **state)
{
    (void)state;
    struct fake f;
    /* The first chunk takes the 10 samples below min_samples (8 at a time,
     * the pending limit), the next one chunk_s's 3. */
    assert_int_equal(sample_three_per_chunk(&f, GB_TIMER_PER_SAMPLE, 0, 0), 11);
    assert_int_equal(f.collects, 2);
}

/* A per-sample clock around a batch: durations divided per launch, the
 * time source says "-graph", the timed sum is what the clock measured. */
static void test_batch_per_sample(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    char src[32];
    memset(&s, 0, sizeof s);
    opts(&o, 0.005, 10, 5000, 100.0);
    fake_init(&f, &t, &w, constant_1000, GB_TIMER_PER_SAMPLE, 4);
    assert_int_equal(gb_sample_until(&t, &w, &o, 4000.0, &s), GB_OK);
    assert_int_equal(s.n, 16);
    assert_true(s.stats.median == 250.0);
    assert_true(s.timed_ns == 16000.0);
    gb_timer_source(&t, 4, src, sizeof src);
    assert_string_equal(src, "fake-graph");
    gb_timer_source(&t, 1, src, sizeof src);
    assert_string_equal(src, "fake");
    gb_sample_set_release(&s);
}

/* A per-kernel clock: one duration per launch of the batch, kept as it is. */
static void test_batch_per_kernel(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    char src[32];
    memset(&s, 0, sizeof s);
    opts(&o, 1e-9, 10, 30, 100.0);
    fake_init(&f, &t, &w, noisy, GB_TIMER_PER_KERNEL, 4);
    assert_int_equal(gb_sample_until(&t, &w, &o, 4000.0, &s), GB_OK);
    /* 8 samples of 4 kernels = 32 durations >= the cap of 30. */
    assert_int_equal(f.runs, 8);
    assert_int_equal(s.n, 32);
    assert_false(s.converged);
    assert_true(fabs(s.stats.median - 2000.0) < 1e-9); /* two even bands: between them */
    gb_timer_source(&t, 4, src, sizeof src);
    assert_string_equal(src, "fake");
    gb_sample_set_release(&s);
}

/* Cold mode: the flush comes before each span, never inside one. */
static void test_prepare_outside_span(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    memset(&s, 0, sizeof s);
    fake_init(&f, &t, &w, constant_1000, GB_TIMER_PER_SAMPLE, 1);
    w.prepare = fake_prepare;
    assert_int_equal(gb_sample_chunk(&t, &w, 3, &s), GB_OK);
    f.log[f.log_n] = '\0';
    assert_string_equal(f.log, "pbrepbrepbrec");
    assert_int_equal(s.n, 3);
    gb_sample_set_release(&s);
}

/* A clock whose chunk is one counting session: chunks as chunk_s says
 * without a prepare step, and of one sample with one (the flush would be
 * counted inside the session). */
static void test_shared_session_chunks(void **state)
{
    (void)state;
    struct fake f;
    assert_int_equal(sample_three_per_chunk(&f, GB_TIMER_PER_KERNEL, 1, 0), 11);
    assert_int_equal(f.collects, 2);
    assert_int_equal(sample_three_per_chunk(&f, GB_TIMER_PER_KERNEL, 1, 1), 10);
    assert_int_equal(f.collects, 10);
    assert_memory_equal(f.log, "pbrecpbrec", 10);
}

static void test_warm_up(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_measure_opts o;
    double est = 0;
    opts(&o, 0.005, 10, 5000, 100.0);
    o.warmup_launches = 5;
    o.warmup_s = 0;
    fake_init(&f, &t, &w, noisy, GB_TIMER_PER_SAMPLE, 1);
    f.untimed_ok = 1;
    assert_int_equal(gb_sample_warm_up(&t, &w, &o, &est), GB_OK);
    assert_int_equal(f.runs, 5);
    assert_int_equal(f.collects, 1); /* one wait for the burst */
    f.log[f.log_n] = '\0';
    assert_string_equal(f.log, "rrrrbrec"); /* four untimed launches, the fifth timed */
    assert_true(est == 3000.0);      /* the timed launch's */
}

/* Warm-up lasts at least warmup_s: bursts until then, the shortest timed
 * launch kept. */
static void test_warm_up_time(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_measure_opts o;
    double est = 0;
    opts(&o, 0.005, 10, 5000, 100.0);
    o.warmup_launches = 2;
    o.warmup_s = 0.003;
    fake_init(&f, &t, &w, noisy, GB_TIMER_PER_SAMPLE, 1);
    f.untimed_ok = 1;
    double t0 = gb_measure_now_s();
    assert_int_equal(gb_sample_warm_up(&t, &w, &o, &est), GB_OK);
    assert_true(gb_measure_now_s() - t0 >= 0.003 || f.runs >= 1000); /* the time, or the launch cap */
    assert_true(f.collects >= 2);
    assert_int_equal(f.runs, 2 * f.collects);
    assert_true(est == 1000.0); /* the shortest of the timed launches */
}

/* The warm-up a point gets: in full when the GPU may have idled (or nothing
 * ran before), none after a long verified launch on a warm GPU, one burst
 * after a short one. */
static void test_warm_plan(void **state)
{
    (void)state;
    assert_int_equal(gb_warm_plan(-1, 0, 5e6), GB_WARM_FULL);             /* the run's first point */
    assert_int_equal(gb_warm_plan(GB_STILL_WARM_S, 1, 5e6), GB_WARM_FULL); /* idled long enough */
    assert_int_equal(gb_warm_plan(2.0, 1, 50.0), GB_WARM_FULL);
    assert_int_equal(gb_warm_plan(0.01, 1, GB_VERIFIED_WARM_NS), GB_WARM_NONE);
    assert_int_equal(gb_warm_plan(0.01, 1, 5e6), GB_WARM_NONE);
    assert_int_equal(gb_warm_plan(0.01, 1, GB_VERIFIED_WARM_NS - 1), GB_WARM_BURST);
    assert_int_equal(gb_warm_plan(0.0, 1, 3000.0), GB_WARM_BURST);
    /* busy moments ago with its verification only: a young spell, topped up */
    assert_int_equal(gb_warm_plan(0.001, 0.02, 5e6), GB_WARM_FULL);
    assert_int_equal(gb_warm_plan(0.001, GB_IDLE_WARMUP_S, 5e6), GB_WARM_NONE);
}

/* The verification launch is the warm-up's first: a full warm-up tops up
 * to its duration from the start of the GPU's spell of work. */
static void test_warm_top_up(void **state)
{
    (void)state;
    double busy = 0, spell = 0;
    gb_busy_mark(&busy, &spell, 10.0, 10.03); /* the run's first verification */
    assert_true(spell == 10.0 && busy == 10.03);
    gb_busy_mark(&busy, &spell, 10.1, 10.5); /* samples moments later: the same spell */
    assert_true(spell == 10.0 && busy == 10.5);
    gb_busy_mark(&busy, &spell, 10.5 + GB_STILL_WARM_S, 11.0); /* after an idle spell: a new one */
    assert_true(spell == 10.5 + GB_STILL_WARM_S && busy == 11.0);
    assert_true(fabs(gb_warm_top_up(0.05, 0.03) - (GB_IDLE_WARMUP_S - 0.03)) < 1e-12);
    assert_true(gb_warm_top_up(0.05, 0) == GB_IDLE_WARMUP_S);
    assert_true(gb_warm_top_up(0.05, 0.5) == 0);
    assert_true(fabs(gb_warm_top_up(1.0, 0.25) - 0.75) < 1e-12); /* a longer warmup_s is kept */
}

/* The clock tried first (the table of clocks): auto tries the profiler;
 * a clock asked for by name is that clock. */
static void test_timer_first(void **state)
{
    (void)state;
    const struct gb_clock_table *tab = gb_clocks();
    assert_string_equal(gb_clock_first(tab, GB_TIMER_AUTO)->name, "profiler");
    const char *names[] = {"cupti", "events", "profiler"};
    for (size_t i = 0; i < 3; i++)
        assert_string_equal(gb_clock_first(tab, gb_clock_parse(tab, names[i]))->name, names[i]);
    assert_null(gb_clock_first(tab, 99));
}

static void test_interrupted(void **state)
{
    (void)state;
    struct fake f;
    struct gb_timer t;
    struct gb_sample_work w;
    struct gb_sample_set s;
    struct gb_measure_opts o;
    memset(&s, 0, sizeof s);
    opts(&o, 0.005, 10, 5000, 100.0);
    fake_init(&f, &t, &w, constant_1000, GB_TIMER_PER_SAMPLE, 1);
    gb_measure_interrupted = 1;
    assert_int_equal(gb_sample_until(&t, &w, &o, 1000.0, &s), GB_ERR_INTERRUPTED);
    gb_measure_interrupted = 0;
    assert_int_equal(f.runs, 0);
    gb_sample_set_release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stops_when_rule_holds),
        cmocka_unit_test(test_stops_at_first_chunk_where_rule_holds),
        cmocka_unit_test(test_stops_at_sample_cap),
        cmocka_unit_test(test_min_samples_one_chunk),
        cmocka_unit_test(test_final_median_is_harrell_davis),
        cmocka_unit_test(test_stops_at_time_cap),
        cmocka_unit_test(test_chunk_follows_chunk_s),
        cmocka_unit_test(test_batch_per_sample),
        cmocka_unit_test(test_batch_per_kernel),
        cmocka_unit_test(test_prepare_outside_span), cmocka_unit_test(test_shared_session_chunks),
        cmocka_unit_test(test_warm_up),
        cmocka_unit_test(test_warm_plan),
        cmocka_unit_test(test_warm_top_up),
        cmocka_unit_test(test_timer_first),
        cmocka_unit_test(test_warm_up_time),
        cmocka_unit_test(test_interrupted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
