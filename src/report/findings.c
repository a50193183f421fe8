/* findings.c - what a run found, in a few lines per suite, computed from its
 * records: the best and the worst configuration of each bench under the
 * suite's own measure, the headline figure, and the source paper it answers.
 * Each suite says how in the gb_findings_rule of its chart set
 * (chart_spec.h); nothing here knows a suite by name.
 * The lines are plain text (gb_report_findings), so that report.md and any
 * other report format can show them; gb_md_findings writes report.md's
 * section. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report.h"
#include "report_internal.h"

/* The rule of a suite that declares none (a kernel spec's): its records
 * ranked by their work's rate within each problem size. */
static const struct gb_findings_rule gb_rule_default = {.per_problem = 1};

/* ---- the line list ---- */

static enum gb_status gb_line(struct gb_findings *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static enum gb_status gb_line(struct gb_findings *out, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return gb_result_add(&out->lines, &out->n, buf);
}

void gb_findings_release(struct gb_findings *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        free(f->lines[i]);
    free(f->lines);
    f->lines = NULL;
    f->n = 0;
}

/* ---- which records are compared ---- */

static int gb_where_holds(const struct gb_record *r, const char *cond)
{
    const char *eq = strchr(cond, '=');
    char name[32];
    if (!eq || (size_t)(eq - cond) >= sizeof name)
        return 1;
    snprintf(name, sizeof name, "%.*s", (int)(eq - cond), cond);
    const char *v = gb_record_axis(r, name);
    return !v || strcmp(v, eq + 1) == 0;   /* an axis the bench does not have holds */
}

static int gb_compared(const struct gb_findings_rule *rule, const struct gb_record *r,
                       const char *suite, const char *bench, double max_at)
{
    if (r->status != GB_REC_OK || strcmp(r->suite, suite) != 0 || strcmp(r->bench, bench) != 0 ||
        !(r->time_ns.median > 0))
        return 0;
    for (int i = 0; i < 2; i++)
        if (rule->where[i] && !gb_where_holds(r, rule->where[i]))
            return 0;
    return !rule->at_max || !gb_record_axis(r, rule->at_max) ||
           gb_record_axis_num(r, rule->at_max, NAN) == max_at;
}

/* The largest value of the rule's at_max axis among the bench's records. */
static double gb_max_at(const struct gb_findings_rule *rule, const struct gb_run *run,
                        const char *suite, const char *bench)
{
    double m = -INFINITY;
    for (size_t i = 0; rule->at_max && i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status == GB_REC_OK && !strcmp(r->suite, suite) && !strcmp(r->bench, bench))
            m = fmax(m, gb_record_axis_num(r, rule->at_max, -INFINITY));
    }
    return m;
}

/* ---- values ---- */

/* What a bench's records are ranked by: a metric of the rule's, the rate of
 * the work they do (GFLOP/s where they count flops, else GB/s), or time. */
enum gb_rate { GB_RATE_METRIC, GB_RATE_GFLOPS, GB_RATE_GBS, GB_RATE_TIME };

/* The metric a bench is ranked by: the first of the rule's that one of its
 * records has; NULL for none. */
static const char *gb_metric_of(const struct gb_findings_rule *rule, const struct gb_run *run,
                                const char *suite, const char *bench)
{
    for (int m = 0; m < 2 && rule->metrics[m]; m++)
        for (size_t i = 0; i < run->n_records; i++) {
            const struct gb_record *r = &run->records[i];
            if (!strcmp(r->suite, suite) && !strcmp(r->bench, bench) &&
                !isnan(gb_record_metric(r, rule->metrics[m], NAN)))
                return rule->metrics[m];
        }
    return NULL;
}

/* The rate of a bench without a metric: unless the rule ranks by time,
 * GFLOP/s where one of its records counts flops (a GEMM moves few bytes for
 * its work), else GB/s where one moves bytes; else time. */
static enum gb_rate gb_rate_of(const struct gb_findings_rule *rule, const struct gb_run *run,
                               const char *suite, const char *bench)
{
    int flops = 0, bytes = 0;
    for (size_t i = 0; i < run->n_records && !rule->by_time; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status == GB_REC_OK && !strcmp(r->suite, suite) && !strcmp(r->bench, bench)) {
            flops |= r->gflops > 0;
            bytes |= r->bw_gbs > 0;
        }
    }
    return flops ? GB_RATE_GFLOPS : bytes ? GB_RATE_GBS : GB_RATE_TIME;
}

/* The value a record is ranked by (NaN: not ranked), and whether higher is better. */
static double gb_value(enum gb_rate rate, const char *metric, const struct gb_record *r, int *higher)
{
    *higher = rate != GB_RATE_TIME;
    switch (rate) {
    case GB_RATE_METRIC: return gb_record_metric(r, metric, NAN);
    case GB_RATE_GFLOPS: return r->gflops > 0 ? r->gflops : NAN;
    case GB_RATE_GBS: return r->bw_gbs > 0 ? r->bw_gbs : NAN;
    case GB_RATE_TIME: break;
    }
    return r->time_ns.median;
}

static const char *gb_unit(const struct gb_findings_rule *rule, enum gb_rate rate, const char *metric)
{
    if (rule->pair_axis)
        return "";
    for (int m = 0; rate == GB_RATE_METRIC && m < 2; m++)
        if (rule->metrics[m] && !strcmp(metric, rule->metrics[m]))
            return rule->metric_units[m] ? rule->metric_units[m] : "";
    return rate == GB_RATE_GFLOPS ? " GFLOP/s" : rate == GB_RATE_GBS ? " GB/s" : " us";
}

/* A value as shown: times in microseconds. */
static double gb_shown(double v, int higher)
{
    return higher ? v : v / 1e3;
}

/* "width=16 grid=stride": the axes of `r` that differ among the compared
 * records, less the pair axis. */
static void gb_config(const struct gb_run *run, const size_t *idx, size_t n, size_t k,
                      const char *skip, char *buf, size_t len)
{
    const struct gb_record *r = &run->records[idx[k]];
    size_t used = 0;
    buf[0] = '\0';
    for (int a = 0; a < r->n_axes; a++) {
        const char *name = r->axes[a].name;
        int varies = 0;
        for (size_t j = 0; j < n && !varies; j++) {
            const char *v = gb_record_axis(&run->records[idx[j]], name);
            varies = !v || strcmp(v, r->axes[a].value) != 0;
        }
        if (!varies || (skip && strcmp(name, skip) == 0) || used >= len)
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", name,
                                 r->axes[a].value);
    }
    if (!buf[0])
        snprintf(buf, len, "its only configuration");
}

/* The partner of record `r` under the rule's pair axis: same bench and every
 * other axis, the axis at pair_den. */
static const struct gb_record *gb_partner(const struct gb_run *run, const struct gb_findings_rule *rule,
                                          const struct gb_record *r)
{
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *q = &run->records[i];
        const char *v = gb_record_axis(q, rule->pair_axis);
        if (q->status != GB_REC_OK || !v || strcmp(v, rule->pair_den) || strcmp(q->bench, r->bench) ||
            strcmp(q->suite, r->suite) || q->n_axes != r->n_axes || !(q->time_ns.median > 0))
            continue;
        int same = 1;
        for (int a = 0; a < r->n_axes && same; a++) {
            const char *qv = gb_record_axis(q, r->axes[a].name);
            same = !strcmp(r->axes[a].name, rule->pair_axis) || (qv && !strcmp(qv, r->axes[a].value));
        }
        if (same)
            return q;
    }
    return NULL;
}

/* ---- one bench ---- */

struct gb_pick {
    const char *metric;
    enum gb_rate rate;
    size_t *idx;       /* the compared records (for a pair rule: the numerators with a partner) */
    double *val;
    size_t n, best, worst;
    int higher;
};

/* The best and the worst of p's values. */
static void gb_pick_extremes(struct gb_pick *p)
{
    p->best = p->worst = 0;
    for (size_t k = 0; k < p->n; k++) {
        int better = p->higher ? p->val[k] > p->val[p->best] : p->val[k] < p->val[p->best];
        int worse = p->higher ? p->val[k] < p->val[p->worst] : p->val[k] > p->val[p->worst];
        p->best = better ? k : p->best;
        p->worst = worse ? k : p->worst;
    }
}

static enum gb_status gb_pick_bench(const struct gb_run *run, const struct gb_findings_rule *rule,
                                    const char *suite, const char *bench, struct gb_pick *p)
{
    double max_at = gb_max_at(rule, run, suite, bench);
    memset(p, 0, sizeof *p);
    p->higher = 1;
    p->metric = gb_metric_of(rule, run, suite, bench);
    p->rate = p->metric ? GB_RATE_METRIC : gb_rate_of(rule, run, suite, bench);
    if (!(p->idx = malloc(run->n_records * sizeof *p->idx + 1)) ||
        !(p->val = malloc(run->n_records * sizeof *p->val + 1)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory for the findings");
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (!gb_compared(rule, r, suite, bench, max_at))
            continue;
        double v;
        if (rule->pair_axis) {
            const char *pv = gb_record_axis(r, rule->pair_axis);
            const struct gb_record *q = pv && !strcmp(pv, rule->pair_num) ? gb_partner(run, rule, r) : NULL;
            if (!q)
                continue;
            v = r->time_ns.median / q->time_ns.median;
        } else {
            v = gb_value(p->rate, p->metric, r, &p->higher);
            if (isnan(v))
                continue;
        }
        p->idx[p->n] = i;
        p->val[p->n++] = v;
    }
    return GB_OK;
}

/* The line of a bench's compared records (of one problem: `bench` is then
 * "tiled at n=512"). */
static enum gb_status gb_bench_line(const struct gb_run *run, const struct gb_findings_rule *rule,
                                    const char *bench, const struct gb_pick *p, struct gb_findings *out)
{
    char best[256], worst[256], bv[32], wv[32], ratio[32];
    const char *unit = gb_unit(rule, p->rate, p->metric);
    gb_config(run, p->idx, p->n, p->best, rule->pair_axis, best, sizeof best);
    gb_config(run, p->idx, p->n, p->worst, rule->pair_axis, worst, sizeof worst);
    gb_format_num(bv, sizeof bv, rule->pair_axis ? p->val[p->best] : gb_shown(p->val[p->best], p->higher), 4);
    gb_format_num(wv, sizeof wv, rule->pair_axis ? p->val[p->worst] : gb_shown(p->val[p->worst], p->higher), 4);
    if (p->n == 1)
        return gb_line(out, "%s: %s%s%s%s (%s)", bench, rule->pair_axis ? rule->pair_what : "",
                       rule->pair_axis ? " " : "", bv, unit, best);
    gb_format_num(ratio, sizeof ratio, p->higher ? p->val[p->best] / p->val[p->worst]
                                                 : p->val[p->worst] / p->val[p->best], 3);
    if (rule->pair_axis)
        return gb_line(out, "%s: %s from %s (%s) to %s (%s), over %zu configurations", bench,
                       rule->pair_what, wv, worst, bv, best, p->n);
    return gb_line(out, "%s: best %s%s (%s), worst %s%s (%s): %s x apart, over %zu configurations",
                   bench, bv, unit, best, wv, unit, worst, ratio, p->n);
}

/* ---- problems: configurations are compared within one problem ---- */

#define GB_MAX_PROBLEM_AXES 8

/* The axes that set a bench's problem (its size), not its configuration. */
struct gb_problem_axes {
    const char *name[GB_MAX_PROBLEM_AXES];
    size_t n;
};

static int gb_differs(double x, double y)
{
    return !(x == y) && !(isnan(x) && isnan(y));
}

/* Whether a and b agree on every axis but `axis`, and differ there. */
static int gb_differ_only_in(const struct gb_record *a, const struct gb_record *b, const char *axis)
{
    int differs = 0;
    if (a->n_axes != b->n_axes)
        return 0;
    for (int i = 0; i < a->n_axes; i++) {
        const char *v = gb_record_axis(b, a->axes[i].name);
        if (v && strcmp(v, a->axes[i].value) == 0)
            continue;
        if (!v || strcmp(a->axes[i].name, axis) != 0)
            return 0;
        differs = 1;
    }
    return differs;
}

/* Whether `axis` sets the problem: two compared records that differ only
 * there do different work (bytes or flops per launch), as two sizes of a
 * problem do and two configurations of one do not. */
static int gb_is_problem_axis(const struct gb_run *run, const struct gb_pick *p, const char *axis)
{
    for (size_t j = 0; j < p->n; j++)
        for (size_t k = j + 1; k < p->n; k++) {
            const struct gb_record *a = &run->records[p->idx[j]], *b = &run->records[p->idx[k]];
            if (gb_differ_only_in(a, b, axis) &&
                (gb_differs(a->bytes, b->bytes) || gb_differs(a->flops, b->flops)))
                return 1;
        }
    return 0;
}

/* Whether an axis is a launch configuration's by its name (a kernel spec's
 * block_size_*, occupancy_*), whatever the work the spec says it does. */
static int gb_config_axis(const char *name)
{
    return strncmp(name, "block_size_", 11) == 0 || strncmp(name, "occupancy_", 10) == 0;
}

/* The problem axes among the compared records' (none unless the rule
 * compares per problem, or for a pair rule, whose ratio is compared across
 * sizes). */
static void gb_find_problem_axes(const struct gb_run *run, const struct gb_findings_rule *rule,
                                 const struct gb_pick *p, struct gb_problem_axes *pa)
{
    pa->n = 0;
    if (!rule->per_problem || rule->pair_axis || p->n < 2)
        return;
    const struct gb_record *r0 = &run->records[p->idx[0]];
    for (int a = 0; a < r0->n_axes && pa->n < GB_MAX_PROBLEM_AXES; a++)
        if (!gb_config_axis(r0->axes[a].name) && gb_is_problem_axis(run, p, r0->axes[a].name))
            pa->name[pa->n++] = r0->axes[a].name;
}

/* "tiled at n=512": the bench and the problem of record r. */
static void gb_problem_label(const char *bench, const struct gb_record *r, const struct gb_problem_axes *pa,
                             char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s at", bench);
    for (size_t a = 0; a < pa->n && used < len; a++) {
        const char *v = gb_record_axis(r, pa->name[a]);
        used += (size_t)snprintf(buf + used, len - used, " %s=%s", pa->name[a], v ? v : "-");
    }
}

/* A line per problem: the compared records of each, in the order the run
 * has them, ranked among themselves. */
static enum gb_status gb_problem_lines(const struct gb_run *run, const struct gb_findings_rule *rule,
                                       const char *bench, const struct gb_pick *p,
                                       const struct gb_problem_axes *pa, struct gb_findings *out)
{
    struct gb_pick sub = *p;
    char *done = calloc(p->n, 1), label[512], other[512];
    enum gb_status st = GB_OK;
    sub.idx = malloc(p->n * sizeof *sub.idx);
    sub.val = malloc(p->n * sizeof *sub.val);
    if (!done || !sub.idx || !sub.val)
        st = gb_error_set(GB_ERR_NOMEM, "out of memory for the findings");
    for (size_t j = 0; j < p->n && st == GB_OK; j++) {
        if (done[j])
            continue;
        gb_problem_label(bench, &run->records[p->idx[j]], pa, label, sizeof label);
        sub.n = 0;
        for (size_t k = j; k < p->n; k++) {
            gb_problem_label(bench, &run->records[p->idx[k]], pa, other, sizeof other);
            if (!done[k] && strcmp(label, other) == 0) {
                done[k] = 1;
                sub.idx[sub.n] = p->idx[k];
                sub.val[sub.n++] = p->val[k];
            }
        }
        gb_pick_extremes(&sub);
        st = gb_bench_line(run, rule, label, &sub, out);
    }
    free(done);
    free(sub.idx);
    free(sub.val);
    return st;
}

/* The lines of one bench: one, or one per problem where its records hold
 * several (a rate or a time is compared between configurations of one
 * size, never between sizes). */
static enum gb_status gb_bench_lines(const struct gb_run *run, const struct gb_findings_rule *rule,
                                     const char *bench, struct gb_pick *p, struct gb_findings *out)
{
    struct gb_problem_axes pa;
    gb_find_problem_axes(run, rule, p, &pa);
    if (pa.n)
        return gb_problem_lines(run, rule, bench, p, &pa, out);
    gb_pick_extremes(p);
    return gb_bench_line(run, rule, bench, p, out);
}

/* The suite's highest bandwidth against the device's theoretical peak. */
static enum gb_status gb_peak_line(const struct gb_run *run, const char *suite, struct gb_findings *out)
{
    const struct gb_record *top = NULL;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status == GB_REC_OK && !strcmp(r->suite, suite) && r->bw_gbs > 0 &&
            (!top || r->bw_gbs > top->bw_gbs))
            top = r;
    }
    double peak = run->info.has_device ? run->info.device.mem_peak_gbs : 0;
    if (!top || !(peak > 0))
        return GB_OK;
    char v[32], pk[32];
    gb_format_num(v, sizeof v, top->bw_gbs, 4);
    gb_format_num(pk, sizeof pk, peak, 4);
    return gb_line(out, "Highest bandwidth: %s GB/s (%s), %.1f%% of the device's theoretical %s GB/s",
                   v, top->bench, 100 * top->bw_gbs / peak, pk);
}

/* Points faster than DRAM can deliver their bytes: their "% peak" is not a
 * DRAM utilisation, and a reader should be told so rather than suspect the
 * timer. */
static enum gb_status gb_above_peak_line(const struct gb_run *run, const char *suite,
                                         struct gb_findings *out)
{
    double peak = run->info.has_device ? run->info.device.mem_peak_gbs : 0, most = 0;
    size_t n = 0, above = 0;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status != GB_REC_OK || strcmp(r->suite, suite) != 0 || !(r->bw_gbs > 0))
            continue;
        n++;
        if (peak > 0 && r->bw_gbs > peak) {
            above++;
            most = r->bw_gbs > most ? r->bw_gbs : most;
        }
    }
    if (!above)
        return GB_OK;
    char pk[32], mx[32], l2[32] = "";
    gb_format_num(pk, sizeof pk, peak, 4);
    gb_format_num(mx, sizeof mx, most, 4);
    if (run->info.device.l2_bytes > 0)
        snprintf(l2, sizeof l2, " (%.0f MiB)", (double)run->info.device.l2_bytes / 1048576.0);
    return gb_line(out, "%zu of %zu points move their bytes faster than the DRAM's theoretical %s GB/s "
                   "(up to %s GB/s): their data comes at least partly from the L2%s or L1, so their "
                   "%% peak is not a DRAM utilisation",
                   above, n, pk, mx, l2);
}

/* The rule the suite's chart set declares, or the default. */
static const struct gb_findings_rule *gb_rule_of(const struct gb_chart_book *book, const char *suite)
{
    const struct gb_chart_set *set = book ? gb_chart_book_find(book, suite) : NULL;
    return set && set->findings ? set->findings : &gb_rule_default;
}

enum gb_status gb_report_findings(const struct gb_run *run, const struct gb_chart_book *book,
                                  const char *suite, struct gb_findings *out)
{
    const struct gb_findings_rule *rule = gb_rule_of(book, suite);
    char **benches = NULL;
    size_t n_benches = 0;
    enum gb_status st = GB_OK;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const struct gb_record *r = &run->records[i];
        int seen = strcmp(r->suite, suite) != 0;
        for (size_t b = 0; b < n_benches && !seen; b++)
            seen = strcmp(benches[b], r->bench) == 0;
        if (!seen)
            st = gb_result_add(&benches, &n_benches, r->bench);
    }
    if (st == GB_OK && rule->where[0])
        st = gb_line(out, "Compared at %s%s%s (where a bench has these axes).", rule->where[0],
                     rule->where[1] ? ", " : "", rule->where[1] ? rule->where[1] : "");
    if (st == GB_OK && rule->at_max)
        st = gb_line(out, "Compared at the largest %s of each bench.", rule->at_max);
    if (st == GB_OK && rule->peak)
        st = gb_peak_line(run, suite, out);
    if (st == GB_OK)
        st = gb_above_peak_line(run, suite, out);
    for (size_t b = 0; b < n_benches && st == GB_OK; b++) {
        struct gb_pick p;
        if ((st = gb_pick_bench(run, rule, suite, benches[b], &p)) == GB_OK && p.n > 0)
            st = gb_bench_lines(run, rule, benches[b], &p, out);
        free(p.idx);
        free(p.val);
    }
    if (st == GB_OK && rule->source)
        st = gb_line(out, "Source: %s.", rule->source);
    for (size_t b = 0; b < n_benches; b++)
        free(benches[b]);
    free(benches);
    if (st != GB_OK)
        gb_findings_release(out);
    return st;
}

/* ---- report.md ---- */

static void gb_md_plain(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_[]<>|#", *s))
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

enum gb_status gb_md_findings(FILE *f, const struct gb_run *run, const struct gb_chart_book *book,
                              char *const *suites, size_t n_suites)
{
    enum gb_status st = GB_OK;
    size_t lines = 2, cap = GB_FINDINGS_MAX_LINES - 2 * n_suites - 2;
    fputs("## Findings\n\n", f);
    for (size_t s = 0; s < n_suites && st == GB_OK; s++) {
        struct gb_findings fd;
        if ((st = gb_report_findings(run, book, suites[s], &fd)) != GB_OK)
            break;
        if (n_suites > 1) {
            fputs("**", f);
            gb_md_plain(f, suites[s]);
            fputs("**\n\n", f);
            lines += 2;
        }
        for (size_t i = 0; i < fd.n; i++, lines++) {
            if (lines >= cap) {
                fprintf(f, "- ... %zu more lines: `gpubound report RUN_DIR` prints the per-bench "
                           "table below.\n", fd.n - i);
                lines++;
                break;
            }
            fputs("- ", f);
            gb_md_plain(f, fd.lines[i]);
            fputc('\n', f);
        }
        fputc('\n', f);
        lines++;
        gb_findings_release(&fd);
    }
    return st;
}
