/* cli.h - the command table and what every subcommand shares. Only this
 * layer prints to the user and decides exit codes. */
#ifndef GB_CLI_H
#define GB_CLI_H

#include "results/validate.h"
#include <getopt.h>
#include <stdio.h>

#include "gpubound/report.h"
#include "gpubound/status.h"

/* Exit codes (docs/cli.md). */
enum { GB_EXIT_OK = 0, GB_EXIT_FAIL = 1, GB_EXIT_USAGE = 2, GB_EXIT_NO_GPU = 3 };

struct gb_cmd {
    const char *name;
    int (*fn)(int argc, char **argv);   /* argv[0] is the command's name */
    const char *summary;                /* one line for `gpubound help` */
    const char *usage;                  /* "gpubound run [SUITE[/BENCH] ...] [options]" */
    const char *help;                   /* options and examples, one per line */
    const char *(*help_fn)(void);       /* the help made from a table, when help is NULL */
};

/* A command's help text (its help, or what help_fn makes). */
const char *gb_cmd_help_text(const struct gb_cmd *c);

/* The table (main.c), NULL-name terminated. */
extern const struct gb_cmd gb_commands[];
const struct gb_cmd *gb_cmd_find(const char *name);

/* Every command. */
int gb_cmd_info(int argc, char **argv);
int gb_cmd_list(int argc, char **argv);
int gb_cmd_run(int argc, char **argv);
int gb_cmd_help(int argc, char **argv);
int gb_cmd_report(int argc, char **argv);
int gb_cmd_occupancy(int argc, char **argv);
int gb_cmd_geometry(int argc, char **argv);
int gb_cmd_camp(int argc, char **argv);
int gb_cmd_compare(int argc, char **argv);
int gb_cmd_breakdown(int argc, char **argv);
int gb_cmd_profile(int argc, char **argv);
int gb_cmd_tune(int argc, char **argv);

/* Prints "gpubound: <what>: <gb_error_message()>[; <todo>]" as one line on
 * stderr (control bytes escaped, as every line below: util/text.h) and
 * returns the exit code for `st`. */
int gb_cli_fail(enum gb_status st, const char *what, const char *todo);

/* Prints "gpubound <cmd>: <message>; see 'gpubound help <cmd>'" on stderr
 * and returns GB_EXIT_USAGE. */
int gb_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --compiler NAME for `cmd`: the compiler of NAME (auto, nvcc or nvrtc) set
 * as the process's (gb_compiler_set) and stored in *chosen (when not NULL);
 * -1 when taken, else the usage error's exit code, said on stderr. */
int gb_cli_compiler(const char *cmd, const char *name, int *chosen);

/* Parses a non-negative integer option value ("--device 1"); prints the usage
 * error itself and returns -1 on bad input. */
long gb_cli_parse_long(const char *cmd, const char *opt, const char *s, long min, long max);

/* A whole-number option value checked against range `id` of the one range
 * table (results/validate.h) and at least `min`: the value, or -1 after the
 * usage line naming the option, the allowed range and what it is. */
long gb_cli_parse_range(const char *cmd, const char *opt, const char *s, enum gb_range_id id, long min);

/* Parses a compute capability "X.Y" (X, Y >= 0) for --cc; returns 0, or -1
 * on bad input (the caller prints the usage error, in its own words). */
int gb_cli_parse_cc(const char *s, int *major, int *minor);

struct gb_stage;

/* Prints "wrote <file>" on stderr for every file of res->files, named where
 * the committed `stage` (util/stage.h) put it. */
void gb_cli_print_written(const struct gb_stage *stage, const struct gb_report_result *res);
/* Loads a run directory (gb_run_load), checks its axis values against the
 * suite table (warnings), and prints every warning on stderr as one
 * "warning: ..." line each. The status of gb_run_load. */
struct gb_run;
enum gb_status gb_cli_load_run(const char *dir, struct gb_run **out);

/* For command `cmd` (a string that outlives it): SIGINT and SIGTERM remove
 * the stages the process has open (gb_stage_remove_open), say so in one
 * line on stderr, and end the process by that signal (a shell sees 130 or
 * 143). A second signal while that runs ends it at once, which may leave a
 * stage for the next command's sweep. A signal ignored at start stays
 * ignored; run and tune set their own handlers while they measure. */
void gb_cli_catch_interrupts(const char *cmd);

/* Resets getopt so that a command can parse its own argv. */
void gb_cli_getopt_reset(void);

/* The options of `cmd`'s argv read once, as getopt_long reads them with
 * `shortopts` and `longopts`, before the command's own loop: a single-valued
 * option given twice, however spelled (--out a --out=b, -o a --out b), is a
 * usage error, as are two options of a group of alternatives. `rules` says
 * which options may repeat and which exclude each other, in the notation of
 * the usage lines: "--set... --predict... --out|--model" (NULL: every
 * option once, no groups). Unknown options and missing values are left to
 * the command's loop. -1 when argv keeps the rules, else the exit code of
 * the one usage line said on stderr; getopt is reset either way. */
int gb_cli_options_once(const char *cmd, int argc, char **argv, const char *shortopts,
                        const struct option *longopts, const char *rules);

/* 1 when `path` (existing or not) is directory `dir` or lies inside it,
 * links resolved: the guard of commands that read a run and must not
 * write into it. 0 when `dir` does not exist. */
int gb_cli_path_within(const char *path, const char *dir);

/* The guard itself, for every command that writes where a user says: -1
 * when `path` (what option `opt` names: "--out", "--chart") lies outside
 * the run `dir` the command reads, or either is NULL; else the usage error
 * "OPT PATH lies inside the run DIR, which this command only reads; ..."
 * on stderr (gb_cli_usage) and its exit code. */
int gb_cli_out_outside(const char *cmd, const char *opt, const char *path, const char *dir);

/* The default output directory of a command that reads a run:
 * runs/NAME-<UTC time>, with -2, -3, ... when one by that name exists. */
void gb_cli_default_out(char *buf, size_t n, const char *name);

/* The command line as one string (for run.json); gb_cli_set_command_line
 * also keeps the arguments as given, for a command that starts itself
 * anew (gb_cli_argv: NULL-terminated, before getopt reordered them). */
const char *gb_cli_command_line(void);
void gb_cli_set_command_line(int argc, char **argv);
char *const *gb_cli_argv(void);

#endif
