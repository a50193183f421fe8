/* run_charts.h - the chart specs the commands hand to reports: a run's own
 * charts.json, or, for runs recorded before runs carried one, the charts
 * of the suite table of this build (the only place reports meet it). */
#ifndef GB_CLI_RUN_CHARTS_H
#define GB_CLI_RUN_CHARTS_H

#include "gpubound/chart_spec.h"
#include "gpubound/measure.h"
#include "gpubound/results.h"

/* Fills `book` (released by the caller with gb_chart_book_release) with the
 * charts of `run`: its charts.json when it has one, else the suite table's
 * charts of each suite of the run that this build knows; either way with
 * the findings rules of the suites this build knows. GB_ERR_FORMAT when
 * charts.json is malformed. */
enum gb_status gb_cli_run_charts(const struct gb_run *run, struct gb_chart_book *book);

/* Writes <run_dir>/charts.json with the charts of every suite of `plan`. */
enum gb_status gb_cli_save_charts(const char *run_dir, const struct gb_plan *plan);

#endif
