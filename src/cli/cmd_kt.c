/* cmd_kt.c - `gpubound export RUN --format t4|kt-cache` and `gpubound
 * import KT_CACHE --out RUN`: Kernel Tuner's files (results/kt_formats.h). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_kt.h"
#include "results/kt_formats.h"
#include "util/fs.h"
#include "util/stage.h"

struct gb_export_args {
    const char *run, *bench, *out;
    enum gb_kt_format fmt;
    int have_fmt;
};

static int gb_export_parse(int argc, char **argv, struct gb_export_args *a)
{
    static const struct option opts[] = {{"format", required_argument, 0, 'f'},
                                         {"bench", required_argument, 0, 'b'},
                                         {"out", required_argument, 0, 'o'},
                                         {0, 0, 0, 0}};
    int c;
    memset(a, 0, sizeof *a);
    if ((c = gb_cli_options_once("export", argc, argv, "", opts, NULL)) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'b')
            a->bench = optarg;
        else if (c == 'o')
            a->out = optarg;
        else if (c == 'f' && (strcmp(optarg, "t4") == 0 || strcmp(optarg, "kt-cache") == 0))
            a->fmt = strcmp(optarg, "t4") == 0 ? GB_KT_T4 : GB_KT_CACHE, a->have_fmt = 1;
        else if (c == 'f')
            return gb_cli_usage("export", "--format '%s': the formats are t4 and kt-cache", optarg);
        else
            return gb_cli_usage("export", "unknown option (see gpubound help export)");
    }
    if (optind != argc - 1)
        return gb_cli_usage("export", "name one run directory (gpubound export RUN --format t4|kt-cache)");
    if (!a->have_fmt)
        return gb_cli_usage("export", "give --format t4 or --format kt-cache");
    a->run = argv[optind];
    return -1;
}

/* The file written through a stage, so that a failure leaves none. */
static int gb_export_file(const struct gb_export_args *a, const struct gb_run *run, const char *bench)
{
    struct gb_stage stage;
    char staged[GB_PATH_MAX];
    if (gb_stage_open_file(&stage, a->out, staged, sizeof staged) != GB_OK)
        return gb_cli_usage("export", "--out refused: %s", gb_error_message());
    FILE *f = fopen(staged, "w");
    enum gb_status st = f ? gb_kt_write(f, run, bench, a->fmt) : gb_error_set(GB_ERR_IO, "cannot write %s", a->out);
    if (f && fclose(f) != 0 && st == GB_OK)
        st = gb_error_set(GB_ERR_IO, "cannot write %s", a->out);
    if (st == GB_OK)
        st = gb_stage_commit(&stage);
    else
        gb_stage_fail(&stage, st);
    if (st != GB_OK)
        return gb_cli_fail(st, "export", NULL);
    fprintf(stderr, "wrote %s\n", a->out);
    return GB_EXIT_OK;
}

int gb_cmd_export(int argc, char **argv)
{
    struct gb_export_args a;
    struct gb_run *run = NULL;
    const char *bench;
    int rc = gb_export_parse(argc, argv, &a);
    if (rc >= 0 || (rc = gb_cli_out_outside("export", "--out", a.out, a.run)) >= 0)
        return rc;
    enum gb_status lst = gb_run_load(a.run, &run);
    if (lst != GB_OK) { /* a damaged run is bad data (1), as for every command that reads one */
        rc = gb_cli_fail(lst, "export", NULL);
        goto out;
    }
    if (gb_kt_bench(run, a.bench, &bench) != GB_OK) {
        rc = gb_cli_usage("export", "%s: %s", a.run, gb_error_message());
        goto out;
    }
    if (a.out) {
        rc = gb_export_file(&a, run, bench);
        goto out;
    }
    enum gb_status st = gb_kt_write(stdout, run, bench, a.fmt);
    rc = st == GB_OK && fflush(stdout) == 0 ? GB_EXIT_OK : gb_cli_fail(st == GB_OK ? GB_ERR_IO : st, "export", NULL);
out:
    gb_run_free(run);
    return rc;
}

/* kt-import.json: where the run came from and what its times are. */
static enum gb_status gb_import_note(const char *dir, const char *src, const struct gb_kt_cache *c)
{
    char path[GB_PATH_MAX];
    json_t *ps = json_loads(c->problem_size, JSON_DECODE_ANY, NULL);
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:I}", "format", "gpubound-kt-import/1", "source", src,
                          "device_name", c->device_name, "kernel_name", c->kernel_name, "problem_size",
                          ps ? ps : json_null(), "times",
                          "Kernel Tuner's summaries: each median is Kernel Tuner's time, the mean of its "
                          "event-timed launches; the samples are its times",
                          "configurations", (json_int_t)c->n);
    snprintf(path, sizeof path, "%s/kt-import.json", dir);
    int bad = !j || json_dump_file(j, path, JSON_INDENT(2)) != 0;
    json_decref(j);
    return bad ? gb_error_set(GB_ERR_IO, "cannot write %s", path) : GB_OK;
}

static enum gb_status gb_import_write(const char *dir, const char *src, const struct gb_kt_cache *c)
{
    struct gb_run_info info;
    struct gb_run_writer *w = NULL;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "gpubound import %s --out %s (times: Kernel Tuner's summaries, the mean of its event-timed launches)",
             src, dir);
    gb_run_info_init(&info, cmd, NULL);
    snprintf(info.mode, sizeof info.mode, "full");
    enum gb_status st = gb_run_writer_open(dir, &info, (const char *const *)c->keys, c->n_keys, &w);
    for (size_t i = 0; st == GB_OK && i < c->n; i++) {
        st = gb_run_writer_add(w, &c->recs[i]);
        if (c->recs[i].status == GB_REC_OK)
            info.points_ok++;
        else if (c->recs[i].status != GB_REC_SKIPPED)
            info.points_failed++;
    }
    info.complete = st == GB_OK;
    gb_utc_now(info.finished_utc, sizeof info.finished_utc);
    enum gb_status cst = w ? gb_run_writer_close(w, &info) : GB_OK;
    if (st == GB_OK)
        st = cst;
    return st == GB_OK ? gb_import_note(dir, src, c) : st;
}

int gb_cmd_import(int argc, char **argv)
{
    static const struct option opts[] = {{"out", required_argument, 0, 'o'}, {0, 0, 0, 0}};
    const char *out = NULL;
    struct gb_kt_cache c;
    char made[GB_PATH_MAX] = "";
    int ch, rc;
    if ((ch = gb_cli_options_once("import", argc, argv, "", opts, NULL)) >= 0)
        return ch;
    gb_cli_getopt_reset();
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch != 'o')
            return gb_cli_usage("import", "unknown option (see gpubound help import)");
        out = optarg;
    }
    if (optind != argc - 1)
        return gb_cli_usage("import", "name one Kernel Tuner cache file (gpubound import KT_CACHE --out RUN)");
    if (!out)
        return gb_cli_usage("import", "give --out RUN: the run directory to make");
    enum gb_status st = gb_kt_cache_read(argv[optind], &c);
    if (st != GB_OK) /* not a cache, or an entry a run cannot hold: bad data, nothing written */
        return gb_cli_fail(st, "import", NULL);
    if (gb_stage_mkdir(out, made, sizeof made) != GB_OK || gb_run_dir_prepare(out) != GB_OK) {
        rc = gb_cli_usage("import", "--out refused: %s", gb_error_message());
        goto out;
    }
    st = gb_import_write(out, argv[optind], &c);
    rc = st == GB_OK ? GB_EXIT_OK : gb_cli_fail(st, "import", NULL);
    if (st != GB_OK && made[0])
        gb_stage_unmake(out, made);
    if (st == GB_OK)
        printf("import: %s: %zu configurations of %s on %s (times: Kernel Tuner's summaries)\n", out, c.n,
               c.kernel_name, c.device_name);
out:
    gb_kt_cache_release(&c);
    return rc;
}
