/* result.c - what a report wrote, could not draw, or had no data for
 * (struct gb_report_result), and the string lists behind it. */
#include <stdlib.h>
#include <string.h>

#include "gpubound/plot.h"
#include "plot_internal.h"
#include "report_internal.h"

enum gb_status gb_result_add(char ***list, size_t *n, const char *s)
{
    char **nl = realloc(*list, (*n + 1) * sizeof *nl);
    if (!nl)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    *list = nl;
    nl[*n] = strdup(s);
    if (!nl[*n])
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    (*n)++;
    return GB_OK;
}

enum gb_status gb_result_add_file(struct gb_report_result *res, const char *dir,
                                  const char *file)
{
    size_t len = strlen(dir) + strlen(file) + 2;
    char *p = malloc(len);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    snprintf(p, len, "%s/%s", dir, file);
    enum gb_status st = gb_result_add(&res->files, &res->n_files, p);
    free(p);
    return st;
}

void gb_report_result_init(struct gb_report_result *res)
{
    memset(res, 0, sizeof *res);
}

void gb_str_list_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void gb_report_result_release(struct gb_report_result *res)
{
    if (!res)
        return;
    gb_str_list_free(res->files, res->n_files);
    gb_str_list_free(res->not_drawn, res->n_not_drawn);
    gb_str_list_free(res->no_data, res->n_no_data);
    memset(res, 0, sizeof *res);
}
