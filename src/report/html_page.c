/* html_page.c - the page around report.html's data: the chart library and
 * the page script inlined, the data as a JSON script block; and the page of
 * `camp predict --html`, which holds only the CampProf calculator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report_html.h"
#include "html_internal.h"
#include "report_internal.h"

/* Script text with every "</" written "<\/", so that no "</script>" inside
 * it closes the block (the same string to JavaScript and to JSON). */
static void gb_html_script_text(FILE *f, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (p[0] == '<' && p[1] == '/') {
            fputs("<\\/", f);
            p++;
        } else {
            fputc(*p, f);
        }
    }
}

static void gb_html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

enum gb_status gb_html_page(const char *path, const char *title, const json_t *doc, const char *lib)
{
    enum gb_status st;
    struct gb_atomic_file a;
    char *libtext = NULL, *data = NULL;
    size_t n = 0;
    const char *js = gb_html_asset("page.js"), *css = gb_html_asset("page.css");
    const char *camp = gb_html_asset("campprof.js");
    if (!js || !css || !camp)
        return gb_error_set(GB_ERR_IO, "report.html: the page script is missing from this build");
    if ((st = gb_html_read_file(lib, &libtext, &n)) != GB_OK)
        return st;
    if (!(data = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(17)))) {
        free(libtext);
        return gb_error_set(GB_ERR_NOMEM, "report.html: out of memory");
    }
    if ((st = gb_atomic_open(&a, path, "w")) == GB_OK) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
              "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
              "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
              a.f);
        gb_html_text(a.f, title);
        fputs("</title>\n<style>\n", a.f);
        gb_html_script_text(a.f, css);
        fputs("</style></head>\n<body>\n<div id=\"gb-app\"><p>Loading the report&hellip; (it needs "
              "JavaScript)</p></div>\n<script id=\"gb-data\" type=\"application/json\">", a.f);
        gb_html_script_text(a.f, data);
        fputs("</script>\n<script>\n", a.f);
        gb_html_script_text(a.f, libtext);
        fputs("\n</script>\n<script>\n", a.f);
        gb_html_script_text(a.f, camp);
        gb_html_script_text(a.f, js);
        fputs("\n</script>\n</body></html>\n", a.f);
        st = gb_atomic_commit(&a);
    }
    free(data);
    free(libtext);
    return st;
}

static json_t *gb_html_counts(const double *v)
{
    json_t *o = json_object();
    static const int widths[5] = {1, 2, 4, 8, 16};
    for (int i = 0; o && i < 5; i++)
        if (v[i] > 0) {
            char k[8];
            snprintf(k, sizeof k, "%d", widths[i]);
            json_object_set_new(o, k, json_real(v[i]));
        }
    return o;
}

static json_t *gb_html_long(long v)
{
    return v >= 0 ? json_integer(v) : json_null();
}

enum gb_status gb_html_camp_page(const char *model_path, const struct gb_html_camp_inputs *in,
                                 const char *path, int *written, char *note, size_t n)
{
    enum gb_status st;
    char lib[GB_PATH_MAX];
    const char *slash = strrchr(model_path, '/');
    *written = 0;
    if (!gb_html_library(lib, sizeof lib)) {
        snprintf(note, n, "the page needs the chart library %s: install it with 'make deps' or "
                 "'apt-get install libjs-chart.js'", lib);
        return GB_OK;
    }
    json_error_t err;
    json_t *m = json_load_file(model_path, 0, &err);
    if (!m)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", model_path, err.text);
    json_t *inputs = json_pack("{s:o?, s:o?, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "ld",
                               gb_html_counts(in->ld), "st", gb_html_counts(in->st), "threads",
                               gb_html_long(in->threads), "regs", gb_html_long(in->regs), "smem",
                               gb_html_long(in->smem), "grid", gb_html_long(in->grid), "warps",
                               gb_html_long(in->warps_max), "at_warps", gb_html_long(in->at_warps),
                               "time_ns", gb_html_num(in->time_ns));
    json_t *doc = json_pack("{s:s, s:[{s:s, s:o}], s:o?}", "tool", "gpubound " GB_VERSION,
                            "camp_models", "file", slash ? slash + 1 : model_path, "model", m,
                            "camp_inputs", inputs);
    if (!doc)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    st = gb_html_page(path, in->title ? in->title : "CampProf calculator", doc, lib);
    json_decref(doc);
    *written = st == GB_OK;
    return st;
}
