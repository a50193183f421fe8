/* html_internal.h - what the files of report.html share (html.c, html_page.c). */
#ifndef GB_HTML_INTERNAL_H
#define GB_HTML_INTERNAL_H

#include <stddef.h>

#include <jansson.h>

#include "gpubound/status.h"

/* A number as JSON: null when it is not finite. */
json_t *gb_html_num(double v);

/* Reads the whole file into *out (NUL-terminated, caller frees), its length
 * in *n. GB_ERR_IO, GB_ERR_NOMEM. */
enum gb_status gb_html_read_file(const char *path, char **out, size_t *n);

/* Writes the page `path` (atomically): `title`, the document `doc` as the
 * page's data, the chart library read from `lib`, and the page's own style
 * and script. GB_ERR_IO, GB_ERR_NOMEM. */
enum gb_status gb_html_page(const char *path, const char *title, const json_t *doc, const char *lib);

/* The page's own files, built into the binary by cmake/embed_html.cmake:
 * "page.js", "page.css"; NULL for another name. */
const char *gb_html_asset(const char *name);

#endif
