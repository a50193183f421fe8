/* run_charts.c - chart specs between the suite table and the reports. */
#include <string.h>

#include "cli/run_charts.h"
#include "gpubound/suite.h"

/* Adds the charts of suite `s` to the book, once per suite. */
static enum gb_status gb_book_add_suite(struct gb_chart_book *book, const struct gb_suite *s)
{
    struct gb_chart_set set = {s->name, s->help, s->charts, s->n_charts, s->findings};
    if (gb_chart_book_find(book, s->name))
        return GB_OK;
    return gb_chart_book_add(book, &set);
}

enum gb_status gb_cli_run_charts(const struct gb_run *run, struct gb_chart_book *book)
{
    int found = 0;
    enum gb_status st = gb_chart_book_load(run->dir, book, &found);
    for (size_t i = 0; st == GB_OK && !found && i < run->n_records; i++) {
        const struct gb_suite *s = gb_suite_find(run->records[i].suite);
        if (s)
            st = gb_book_add_suite(book, s);
    }
    /* charts.json carries charts, not findings rules: those of the suites
     * this build knows come from their rows. */
    for (size_t i = 0; st == GB_OK && found && i < book->n; i++) {
        const struct gb_suite *s = gb_suite_find(book->sets[i].name);
        if (s && !book->sets[i].findings)
            book->sets[i].findings = s->findings;
    }
    return st;
}

enum gb_status gb_cli_save_charts(const char *run_dir, const struct gb_plan *plan)
{
    struct gb_chart_book book;
    enum gb_status st = GB_OK;
    gb_chart_book_init(&book);
    for (size_t i = 0; i < plan->n && st == GB_OK; i++)
        st = gb_book_add_suite(&book, plan->items[i].suite);
    if (st == GB_OK)
        st = gb_chart_book_write(&book, run_dir);
    gb_chart_book_release(&book);
    return st;
}
