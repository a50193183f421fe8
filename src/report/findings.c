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

/* The rule of a suite that declares none. */
static const struct gb_findings_rule gb_rule_default = {0};

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

/* The value a record is ranked by (NaN: not ranked), and whether higher is better. */
static double gb_value(const struct gb_findings_rule *rule, const char *metric,
                       const struct gb_record *r, int *higher)
{
    *higher = 1;
    if (metric)
        return gb_record_metric(r, metric, NAN);
    if (r->bw_gbs > 0 && !rule->by_time)
        return r->bw_gbs;
    *higher = 0;
    return r->time_ns.median;
}

static const char *gb_unit(const struct gb_findings_rule *rule, const char *metric,
                           const struct gb_record *r)
{
    if (rule->pair_axis)
        return "";
    for (int m = 0; metric && m < 2; m++)
        if (rule->metrics[m] && !strcmp(metric, rule->metrics[m]))
            return rule->metric_units[m] ? rule->metric_units[m] : "";
    return r->bw_gbs > 0 && !rule->by_time ? " GB/s" : " us";
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
    size_t *idx;       /* the compared records (for a pair rule: the numerators with a partner) */
    double *val;
    size_t n, best, worst;
    int higher;
};

static enum gb_status gb_pick_bench(const struct gb_run *run, const struct gb_findings_rule *rule,
                                    const char *suite, const char *bench, struct gb_pick *p)
{
    double max_at = gb_max_at(rule, run, suite, bench);
    memset(p, 0, sizeof *p);
    p->higher = 1;
    p->metric = gb_metric_of(rule, run, suite, bench);
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
            v = gb_value(rule, p->metric, r, &p->higher);
            if (isnan(v))
                continue;
        }
        p->idx[p->n] = i;
        p->val[p->n++] = v;
    }
    for (size_t k = 0; k < p->n; k++) {
        int better = p->higher ? p->val[k] > p->val[p->best] : p->val[k] < p->val[p->best];
        int worse = p->higher ? p->val[k] < p->val[p->worst] : p->val[k] > p->val[p->worst];
        p->best = better ? k : p->best;
        p->worst = worse ? k : p->worst;
    }
    return GB_OK;
}

static enum gb_status gb_bench_line(const struct gb_run *run, const struct gb_findings_rule *rule,
                                    const char *bench, const struct gb_pick *p, struct gb_findings *out)
{
    char best[256], worst[256], bv[32], wv[32], ratio[32];
    const struct gb_record *rb = &run->records[p->idx[p->best]];
    const char *unit = gb_unit(rule, p->metric, rb);
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
            st = gb_bench_line(run, rule, benches[b], &p, out);
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
