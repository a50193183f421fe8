/* cli_util.c - what every subcommand shares: errors, usage, number parsing. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "results/validate.h"
#include "gpubound/gpu.h"
#include "gpubound/results.h"
#include "gpubound/suite.h"
#include "util/stage.h"
#include "util/text.h"

static char gb_cmdline[1024];
static char **gb_argv_kept;

/* One line on stderr: `text` with its control bytes escaped (util/text.h). */
static void gb_cli_line(const char *text)
{
    char line[8192];
    gb_text_escape(line, sizeof line, text);
    fprintf(stderr, "%s\n", line);
}

int gb_cli_fail(enum gb_status st, const char *what, const char *todo)
{
    const char *msg = gb_error_message();
    char text[8192];
    snprintf(text, sizeof text, "gpubound: %s%s%s%s%s", what ? what : "", what && msg[0] ? ": " : "", msg,
             todo ? "; " : "", todo ? todo : "");
    gb_cli_line(text);
    return gb_status_exit_code(st);
}

int gb_cli_usage(const char *cmd, const char *fmt, ...)
{
    char msg[4096], text[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(text, sizeof text, "gpubound %s: %s; see 'gpubound help %s'", cmd, msg, cmd);
    gb_cli_line(text);
    return GB_EXIT_USAGE;
}

int gb_cli_compiler(const char *cmd, const char *name, int *chosen)
{
    int c = gb_compiler_parse(name);
    if (c < 0)
        return gb_cli_usage(cmd, "--compiler takes auto, nvcc or nvrtc, not '%s'", name);
    gb_compiler_set((enum gb_compiler)c);
    if (chosen)
        *chosen = c;
    return -1;
}

long gb_cli_parse_long(const char *cmd, const char *opt, const char *s, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < min || v > max) {
        gb_cli_usage(cmd, "%s needs an integer from %ld to %ld, not '%s'", opt, min, max, s);
        return -1;
    }
    return v;
}

long gb_cli_parse_range(const char *cmd, const char *opt, const char *s, enum gb_range_id id, long min)
{
    const struct gb_range *r = gb_range_get(id);
    long long v;
    char why[512];
    long lo = (long)r->lo > min ? (long)r->lo : min;
    if (gb_text_range_int(s, id, &v, cmd, opt, why, sizeof why) != 0 || v < lo) {
        gb_cli_usage(cmd, "%s needs an integer from %ld to %.0f (%s), not '%s'", opt, lo, r->hi, r->what, s);
        return -1;
    }
    return (long)v;
}

int gb_cli_parse_cc(const char *s, int *major, int *minor)
{
    int used = 0;
    if (sscanf(s, "%d.%d%n", major, minor, &used) != 2 || s[used] != '\0' || *major < 0 || *minor < 0)
        return -1;
    return 0;
}

void gb_cli_getopt_reset(void)
{
    optind = 0; /* glibc: 0 also resets its internal state */
    opterr = 0;
}

/* The option getopt_long returned as `c` (long index `li`, -1 when short),
 * as a user would write it: "--out", or "-o" when it has no long name. */
static const char *gb_cli_opt_name(const struct option *longopts, int c, int li, char *buf, size_t n)
{
    for (int i = 0; li < 0 && longopts[i].name; i++)
        if (longopts[i].val == c && !longopts[i].flag)
            li = i;
    if (li >= 0)
        snprintf(buf, n, "--%s", longopts[li].name);
    else
        snprintf(buf, n, "-%c", c);
    return buf;
}

/* Whether option `name` ("--out") is a word of `list` ("--set... --out|--model"),
 * ending in `end` ("...", "|" or "" for any). */
static int gb_cli_rule_has(const char *list, const char *name, const char *end)
{
    size_t n = strlen(name), e = strlen(end);
    for (const char *p = list ? strstr(list, name) : NULL; p; p = strstr(p + 1, name))
        if ((p == list || p[-1] == ' ' || p[-1] == '|') && strncmp(p + n, end, e) == 0 &&
            (e || p[n] == '\0' || p[n] == ' ' || p[n] == '|' || p[n] == '.'))
            return 1;
    return 0;
}

/* The group of alternatives of `rules` that holds both `a` and `b`. */
static int gb_cli_alternatives(const char *rules, const char *a, const char *b)
{
    char group[256];
    for (const char *p = rules; p && *p;) {
        size_t len = strcspn(p, " ");
        snprintf(group, sizeof group, "%.*s", (int)len, p);
        if (strchr(group, '|') && gb_cli_rule_has(group, a, "") && gb_cli_rule_has(group, b, ""))
            return 1;
        p += len + (p[len] == ' ');
    }
    return 0;
}

int gb_cli_options_once(const char *cmd, int argc, char **argv, const char *shortopts,
                        const struct option *longopts, const char *rules)
{
    struct { int c; char name[64]; const char *arg; } seen[64];
    int n = 0, c, li, rc = -1;
    char name[64];
    /* getopt permutes what it reads: a copy, so the command reads argv as given. */
    char **copy = malloc(((size_t)argc + 1) * sizeof *copy);
    if (!copy)
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), cmd, NULL);
    memcpy(copy, argv, ((size_t)argc + 1) * sizeof *copy);
    gb_cli_getopt_reset();
    while (rc < 0 && (li = -1, c = getopt_long(argc, copy, shortopts, longopts, &li)) != -1) {
        if (c == '?' || c == ':' || c == 0) /* the command's own loop says what is wrong */
            continue;
        int i = 0;
        gb_cli_opt_name(longopts, c, li, name, sizeof name);
        while (i < n && seen[i].c != c)
            i++;
        if (i < n && !gb_cli_rule_has(rules, name, "..."))
            rc = seen[i].arg ? gb_cli_usage(cmd, "%s is given twice ('%s', then '%s'): it takes one value",
                                             name, seen[i].arg, optarg ? optarg : "")
                             : gb_cli_usage(cmd, "%s is given twice: give it once", name);
        for (int k = 0; i == n && k < n && rc < 0; k++)
            if (gb_cli_alternatives(rules, seen[k].name, name))
                rc = gb_cli_usage(cmd, "%s and %s are alternatives: give one of them", seen[k].name, name);
        if (rc < 0 && i == n && n < (int)(sizeof seen / sizeof seen[0])) {
            seen[n].c = c;
            snprintf(seen[n].name, sizeof seen[n].name, "%s", name);
            seen[n++].arg = optarg;
        }
    }
    gb_cli_getopt_reset();
    free(copy);
    return rc;
}

void gb_cli_set_command_line(int argc, char **argv)
{
    free(gb_argv_kept);
    if ((gb_argv_kept = calloc((size_t)argc + 1, sizeof *gb_argv_kept)))
        memcpy(gb_argv_kept, argv, (size_t)argc * sizeof *argv);
    gb_cmdline[0] = '\0';
    for (int i = 0; i < argc; i++) {
        size_t len = strlen(gb_cmdline);
        snprintf(gb_cmdline + len, sizeof gb_cmdline - len, "%s%s", i ? " " : "", argv[i]);
    }
}

const char *gb_cli_command_line(void)
{
    return gb_cmdline;
}

char *const *gb_cli_argv(void)
{
    return gb_argv_kept;
}

void gb_cli_print_written(const struct gb_stage *stage, const struct gb_report_result *res)
{
    char final[GB_PATH_MAX + 320];
    for (size_t i = 0; i < res->n_files; i++)
        fprintf(stderr, "wrote %s\n", gb_stage_final(stage, res->files[i], final, sizeof final));
}

/* The suite table's judgement of one recorded axis value (gb_axis_domain_fn). */
static int gb_cli_axis_domain(void *ctx, const char *suite, const char *bench, const char *axis,
                              const char *value, char *why, size_t n)
{
    (void)ctx;
    const struct gb_suite *s = gb_suite_find(suite);
    const struct gb_bench *b = s ? gb_bench_find(s, bench) : NULL;
    if (!b)
        return 0;
    for (int i = 0; i < b->n_axes; i++)
        if (strcmp(b->axes[i].name, axis) == 0) {
            if (gb_axis_check_value(&b->axes[i], value) == GB_OK)
                return 0;
            snprintf(why, n, "%s", gb_error_message());
            return 1;
        }
    return 0;
}

enum gb_status gb_cli_load_run(const char *dir, struct gb_run **out)
{
    enum gb_status st = gb_run_load(dir, out);
    if (st == GB_OK && (st = gb_run_check_axes(*out, gb_cli_axis_domain, NULL)) != GB_OK) {
        gb_run_free(*out);
        *out = NULL;
    }
    if (st != GB_OK)
        return st;
    const struct gb_run *run = *out;
    char line[1200];
    for (size_t i = 0; i < run->n_warnings; i++) {
        snprintf(line, sizeof line, "warning: %s", run->warnings[i]);
        gb_cli_line(line);
    }
    if (run->n_warnings_total > run->n_warnings)
        fprintf(stderr, "warning: %zu more warnings of the same kinds not shown\n",
                run->n_warnings_total - run->n_warnings);
    return GB_OK;
}

/* `path` made absolute with every existing ancestor's links resolved
 * (the part that does not exist yet is appended as written); 0 when not
 * even "/" resolves. */
static int gb_cli_abs_path(const char *path, char *out, size_t n)
{
    char head[PATH_MAX], real[PATH_MAX];
    snprintf(head, sizeof head, "%s", path);
    size_t cut = strlen(head);
    for (;;) {
        head[cut] = '\0';
        if (realpath(cut ? head : ".", real)) {
            const char *rest = path + cut;
            while (*rest == '/')
                rest++;
            int k = snprintf(out, n, "%s%s%s", real, *rest ? "/" : "", rest);
            return k >= 0 && (size_t)k < n;
        }
        if (cut == 0 || (cut == 1 && head[0] == '/'))
            return 0;
        char *slash = strrchr(head, '/');
        cut = !slash ? 0 : slash == head ? 1 : (size_t)(slash - head);
    }
}

int gb_cli_out_outside(const char *cmd, const char *opt, const char *path, const char *dir)
{
    if (!path || !dir || !gb_cli_path_within(path, dir))
        return -1;
    return gb_cli_usage(cmd, "%s %s lies inside the run %s, which this command only reads; give a path "
                        "outside it", opt, path, dir);
}

void gb_cli_default_out(char *buf, size_t n, const char *name)
{
    char ts[32];
    gb_utc_now(ts, sizeof ts);
    for (int k = 1; k < 1000; k++) {
        snprintf(buf, n, "runs/%s-%.4s%.2s%.2sT%.2s%.2s%.2sZ%s%.0d", name, ts, ts + 5, ts + 8, ts + 11,
                 ts + 14, ts + 17, k > 1 ? "-" : "", k > 1 ? k : 0);
        if (access(buf, F_OK) != 0)
            return;
    }
}

int gb_cli_path_within(const char *path, const char *dir)
{
    char p[PATH_MAX], d[PATH_MAX];
    if (!gb_cli_abs_path(path, p, sizeof p) || !realpath(dir, d))
        return 0;
    size_t len = strlen(d);
    if (len == 1)
        return 1; /* every path lies under "/" */
    return strncmp(p, d, len) == 0 && (p[len] == '\0' || p[len] == '/');
}
