/* run_options.c - the options of `gpubound run` from their table
 * (run_options.h): getopt_long's array, the parsers, and the help text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_options.h"
#include "measure/clocks.h"

#define GB_MEMBER(a, o, type) ((type *)((char *)(a) + (o)->off))

static int gb_opt_true(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    (void)arg;
    *GB_MEMBER(a, o, int) = 1;
    return -1;
}

static int gb_opt_false(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    (void)arg;
    *GB_MEMBER(a, o, int) = 0;
    return -1;
}

static int gb_opt_string(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    *GB_MEMBER(a, o, const char *) = arg;
    return -1;
}

static int gb_opt_set(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    (void)o;
    a->sets[a->n_sets++] = arg;
    return -1;
}

static int gb_opt_device(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", o->name);
    a->device_set = 1;
    return (*GB_MEMBER(a, o, long) = gb_cli_parse_range("run", opt, arg, (enum gb_range_id)o->range, 0)) < 0
               ? GB_EXIT_USAGE : -1;
}

static int gb_opt_long(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", o->name);
    return (*GB_MEMBER(a, o, long) = gb_cli_parse_long("run", opt, arg, (long)o->lo, (long)o->max)) < 0
               ? GB_EXIT_USAGE : -1;
}

/* A number above 0 and below o->max (up to it when inclusive). */
static int gb_opt_positive(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    char *end;
    double v = strtod(arg, &end);
    if (*end || !(v > 0 && (v < o->max || (o->inclusive && v == o->max))))
        return gb_cli_usage("run", "--%s needs %s between 0 and %g, not '%s'", o->name, o->what, o->max, arg);
    *GB_MEMBER(a, o, double) = o->div > 0 ? v / o->div : v;
    if (o->flag_off)
        *(int *)((char *)a + o->flag_off) = 1;
    return -1;
}

static int gb_opt_cache(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    int want = o->val == 'C' ? GB_CACHE_COLD : GB_CACHE_HOT;
    (void)arg;
    if (a->mo.cache != -1 && a->mo.cache != want)
        return gb_cli_usage("run", "--cold and --hot ask different questions: give one of them");
    a->mo.cache = want;
    return -1;
}

/* --timer: auto or the name of a row of the clock table (src/measure/clocks.c). */
static int gb_opt_timer(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    char names[256];
    int choice = gb_clock_parse(gb_clocks(), arg);
    (void)o;
    if (choice < 0) {
        gb_clock_choices(gb_clocks(), names, sizeof names);
        return gb_cli_usage("run", "--timer takes %s, not '%s'", names, arg);
    }
    a->mo.timer = choice;
    return -1;
}

/* The compiler is process state (gb_compiler_set), taken before any compile. */
static int gb_opt_compiler(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    (void)o;
    return gb_cli_compiler("run", arg, &a->compiler);
}

static int gb_opt_flush(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    (void)o;
    if ((a->mo.flush = gb_flush_method_parse(arg)) < 0)
        return gb_cli_usage("run", "--flush takes empty, read-last, read, write or write-read, not '%s'", arg);
    return -1;
}

static int gb_opt_format(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    (void)o;
    return gb_format_parse(arg, &a->fmt) != GB_OK ? gb_cli_usage("run", "%s", gb_error_message()) : -1;
}

static int gb_opt_counters(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a)
{
    (void)o;
    gb_counter_names_free(a->counters, a->n_counters);
    a->counters = NULL;
    a->n_counters = 0;
    if (gb_counter_names_parse(arg ? arg : "default", &a->counters, &a->n_counters) != GB_OK)
        return gb_cli_usage("run", "--counters: %s", gb_error_message());
    a->mo.counters = a->counters;
    a->mo.n_counters = a->n_counters;
    a->mo.counters_strict = arg && strcmp(arg, "default") != 0;
    return -1;
}

#define GB_RUN_OPT_ROW(nm, v, sh, ar, lb, fn, member, ck, rec, hl)                                   \
    {.name = nm, .val = v, .is_short = sh, .has_arg = ar, .label = lb, .parse = fn,                 \
     .off = offsetof(struct gb_run_args, member), ck, .record = rec, .help = hl},
const struct gb_run_opt gb_run_opts[] = {GB_RUN_OPTIONS(GB_RUN_OPT_ROW)};
const size_t gb_run_n_opts = sizeof gb_run_opts / sizeof gb_run_opts[0];

#define GB_RUN_OPT_MAX 64

/* getopt_long's array and short option string, from the table. */
static void gb_run_getopt_tables(struct option *longopts, char *shortopts)
{
    size_t k = 0;
    shortopts[k++] = ':';
    for (size_t i = 0; i < gb_run_n_opts; i++) {
        const struct gb_run_opt *o = &gb_run_opts[i];
        longopts[i] = (struct option){o->name, o->has_arg, NULL, o->val};
        if (!o->is_short)
            continue;
        shortopts[k++] = (char)o->val;
        if (o->has_arg != no_argument)
            shortopts[k++] = ':';
        if (o->has_arg == optional_argument)
            shortopts[k++] = ':';
    }
    longopts[gb_run_n_opts] = (struct option){NULL, 0, NULL, 0};
    shortopts[k] = '\0';
}

/* The options that may repeat, for gb_cli_options_once: every row that
 * collects its values (--set), as "--set...". */
static void gb_run_repeatable(char *rules, size_t n)
{
    size_t len = 0;
    rules[0] = '\0';
    for (size_t i = 0; i < gb_run_n_opts && len < n; i++)
        if (gb_run_opts[i].parse == gb_opt_set)
            len += (size_t)snprintf(rules + len, n - len, "%s--%s...", len ? " " : "", gb_run_opts[i].name);
}

/* Returns -1 when the option was taken, else the exit code. */
static int gb_run_option(int c, char **argv, struct gb_run_args *a)
{
    for (size_t i = 0; i < gb_run_n_opts; i++)
        if (gb_run_opts[i].val == c)
            return gb_run_opts[i].parse(&gb_run_opts[i], optarg, a);
    if (c == ':')
        return gb_cli_usage("run", "%s needs a value", argv[optind - 1]);
    return gb_cli_usage("run", "unknown option '%s'", argv[optind - 1]);
}

int gb_run_args_parse(int argc, char **argv, struct gb_run_args *a)
{
    struct option longopts[GB_RUN_OPT_MAX + 1];
    char shortopts[3 * GB_RUN_OPT_MAX + 2], rules[256];
    int c, rc;
    memset(a, 0, sizeof *a);
    a->report = 1;
    a->max_points = GB_PLAN_MAX_POINTS;
    a->compiler = GB_COMPILER_AUTO;
    a->fmt = GB_FORMAT_TABLE;
    gb_measure_opts_default(&a->mo);
    if (!(a->sets = calloc((size_t)argc + 1, sizeof *a->sets)))
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), NULL, NULL);
    if (gb_run_n_opts > GB_RUN_OPT_MAX)
        return gb_cli_fail(gb_error_set(GB_ERR_USAGE, "too many run options"), NULL, NULL);
    gb_run_getopt_tables(longopts, shortopts);
    gb_run_repeatable(rules, sizeof rules);
    if ((rc = gb_cli_options_once("run", argc, argv, shortopts, longopts, rules)) >= 0)
        return rc;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
        if ((rc = gb_run_option(c, argv, a)) >= 0)
            return rc;
    return -1;
}

/* What follows the options in `gpubound help run`. */
static const char gb_run_help_tail[] =
    "With no SUITE every suite runs. Each point is written to DIR as it completes.\n"
    "A kernel spec file (a path ending in .json, or containing '/' and naming a file;\n"
    "docs/kernel-spec.md) runs as a suite: its axes take --set, its points are verified\n"
    "against its reference, and DIR keeps a copy of it under spec/<suite>/.\n"
    "The summary table follows on stdout, then (--format table) the table of every speedup\n"
    "chart a suite declares, e.g. patterns' original against revised times.\n"
    "Exit 0 when every point verified, 1 when a point failed or the run was interrupted,\n"
    "2 on a usage error, 3 when there is no usable GPU.\n"
    "Example: gpubound run bandwidth --out runs/bw\n"
    "Example: gpubound run bandwidth/read --set width=16 --set bytes=1G,4G --quick\n"
    "Example: gpubound run patterns/bank_conflict --set ways=1,32 --set pad=0\n"
    "Example: gpubound run tests/data/specs/saxpy/spec.json --set n=1M --quick\n";

/* One option's lines: its label in a column of 20, its text after it, and
 * the text's further lines under the first. */
static size_t gb_run_help_option(char *buf, size_t n, const struct gb_run_opt *o)
{
    size_t len = (size_t)snprintf(buf, n, "  %-20s", o->label);
    for (const char *s = o->help; *s && len < n;) {
        const char *nl = strchr(s, '\n');
        int w = nl ? (int)(nl - s) : (int)strlen(s);
        len += (size_t)snprintf(buf + len, n - len, "%.*s\n", w, s);
        s += w + (nl ? 1 : 0);
        if (nl && len < n)
            len += (size_t)snprintf(buf + len, n - len, "%22s", "");
    }
    return len;
}

const char *gb_run_help(void)
{
    static char text[8192];
    size_t len = 0;
    if (text[0])
        return text;
    for (size_t i = 0; i < gb_run_n_opts && len < sizeof text; i++)
        if (gb_run_opts[i].help)
            len += gb_run_help_option(text + len, sizeof text - len, &gb_run_opts[i]);
    if (len < sizeof text)
        snprintf(text + len, sizeof text - len, "%s", gb_run_help_tail);
    return text;
}
