/* table.h - terminal tables: cells filled row by row, printed as an aligned
 * terminal table, CSV, JSON or markdown; and the number formats they use.
 * No function prints to the user on its own or exits; none is thread-safe
 * on the same table, and distinct tables may be used from distinct threads.
 */
#ifndef GPUBOUND_TABLE_H
#define GPUBOUND_TABLE_H

#include "gpubound/api.h"

#include <stddef.h>
#include <stdio.h>

#include "gpubound/status.h"

/* ---- output formats ---- */

enum gb_format { GB_FORMAT_TABLE = 0, GB_FORMAT_CSV, GB_FORMAT_JSON };

/* Parses "table", "csv" or "json"; GB_ERR_USAGE (with a message) otherwise. */
GB_API enum gb_status gb_format_parse(const char *s, enum gb_format *out);

/* Writes `v` with `sig` significant digits (4 when sig <= 0) in plain
 * decimal notation: "1235" for 1234.6, "0.01235" for 0.012345; exponent
 * notation only below 1e-4 or from 1e15 up. Integer digits are never
 * dropped. Returns the length snprintf would have written. */
GB_API int gb_format_num(char *buf, size_t n, double v, int sig);

/* Writes "value ± half" with the half width rounded to one or two
 * significant digits (two when its leading digits are 100..354, one
 * otherwise, the Particle Data Group rule) and the value rounded to the
 * same decimal place: (1.23456, 0.00512) -> "1.235 ± 0.005". A half width
 * that is zero, negative or not finite writes the value alone with 4
 * significant digits. Returns the length snprintf would have written. */
GB_API int gb_format_ci(char *buf, size_t n, double v, double half_width);

/* The significant digits to write `x` (a value v or an end of its
 * interval lo..hi) with, so that it ends at the decimal place gb_format_ci
 * keeps for the interval's larger half width: 23.079 in 23.045..23.107
 * takes 5 ("23.079"), its ends 5 too. `fallback` when x is zero or not
 * finite or the interval is empty or not finite. (A ratio and its ends in
 * columns of their own take gb_format_ratio_place and gb_table_cell_place:
 * digits cannot keep 0.99996 and 0.9984 at one place.) */
GB_API int gb_format_interval_sig(double x, double v, double lo, double hi, int fallback);

/* For a ratio (1: no change) and its interval lo..hi: the decimal place
 * (10^place: -4 is four decimals) the ratio and both ends are written to:
 * the one gb_format_ci keeps for the larger half width, or further (to 10^-12 at most)
 * while an end that is not 1 would read as 1 there, so that the numbers
 * show which side of 1 the interval lies: 1.00004 in 1.000003..1.0001 is
 * written to 10^-6, not 10^-5. 0 (place unset) when the interval is empty
 * or not finite, else 1. */
GB_API int gb_format_ratio_place(double v, double lo, double hi, int *place);

/* Writes v rounded to the decimal place 10^place ("%.*f" with -place
 * decimals; to tens, hundreds... for a positive place), "0" rather than
 * "-0". Returns the length snprintf would have written. */
GB_API int gb_format_place(char *buf, size_t n, double v, int place);

/* Columns of the terminal `f` is attached to (ioctl TIOCGWINSZ), 80 when
 * it is a terminal of unknown size, 0 when it is not a terminal. */
GB_API int gb_term_width(FILE *f);

/* ---- tables ----
 * Declare the columns, then fill rows cell by cell from the left; cells a
 * row does not fill are empty. Numbers keep full precision until printed.
 * Column labels are "name (unit)", or "name" when unit is NULL or "". */

struct gb_table;

/* A new empty table, or NULL when out of memory. Free with gb_table_free. */
GB_API struct gb_table *gb_table_new(void);
GB_API void gb_table_free(struct gb_table *t);

/* Appends a column. `name` and `unit` are copied. GB_ERR_USAGE when the
 * label repeats an existing one (CSV and JSON need distinct keys). */
GB_API enum gb_status gb_table_column(struct gb_table *t, const char *name, const char *unit);

/* Starts a new row; the following cells fill it from the first column. */
GB_API enum gb_status gb_table_row(struct gb_table *t);

/* Fill the next cell of the current row. GB_ERR_USAGE when there is no row
 * yet or the row is full. A NULL text or a NaN number is an empty cell.
 *   text: copied; left-aligned unless every cell of its column is a
 *         number, optionally with a K/M/G/T suffix ("16", "1K", "-3");
 *   num:  shown with `sig` significant digits (gb_format_num), written at
 *         full precision in CSV and JSON;
 *   place: a number shown to the decimal place 10^place (gb_format_place),
 *         so that a value and the ends of its interval, in columns of their
 *         own, end at one place; full precision in CSV and JSON;
 *   int:  an integer, shown as is;
 *   ci:   a value and the half width of its confidence interval, shown as
 *         gb_format_ci does and aligned on the "±". In CSV and JSON such a
 *         column becomes two: "<label>" (the value) and "<name> ± (<unit>)"
 *         (the half width), both at full precision. */
GB_API enum gb_status gb_table_cell_text(struct gb_table *t, const char *s);
GB_API enum gb_status gb_table_cell_num(struct gb_table *t, double v, int sig);
GB_API enum gb_status gb_table_cell_place(struct gb_table *t, double v, int place);
GB_API enum gb_status gb_table_cell_int(struct gb_table *t, long long v);
GB_API enum gb_status gb_table_cell_ci(struct gb_table *t, double v, double half_width);
GB_API enum gb_status gb_table_cell_empty(struct gb_table *t);

GB_API size_t gb_table_n_rows(const struct gb_table *t);
GB_API size_t gb_table_n_cols(const struct gb_table *t);

/* Prints the table on `f`:
 *   GB_FORMAT_TABLE  a header of labels, a rule of dashes, then the rows;
 *                    columns two spaces apart, numbers right-aligned, no
 *                    trailing blanks. When `width` > 0 (a terminal's width,
 *                    see gb_term_width) and the table is wider, the widest
 *                    text columns are cut to fit, their text ending in "…";
 *                    lines are never wrapped. width 0 prints everything.
 *   GB_FORMAT_CSV    RFC 4180 quoting, "\n" line ends, a header row of
 *                    labels, numbers at full precision (shortest text that
 *                    reads back to the same double), empty cells empty.
 *   GB_FORMAT_JSON   an array of objects, one per row and one row per line,
 *                    keyed by the CSV header labels; numbers as JSON numbers
 *                    at full precision, empty cells null.
 * GB_ERR_IO when writing fails. */
GB_API enum gb_status gb_table_print(const struct gb_table *t, FILE *f, enum gb_format fmt, int width);

/* Prints the rows of the table as GB_FORMAT_CSV does, with its header row
 * first only when `header`: one CSV written a part at a time (a table of a
 * few rows, printed, then emptied with gb_table_clear_rows and filled
 * again), so that a long CSV is streamed in bounded memory. GB_ERR_IO when
 * writing failed. */
GB_API enum gb_status gb_table_print_csv_part(const struct gb_table *t, FILE *f, int header);

/* Removes every row, keeping the columns. */
GB_API void gb_table_clear_rows(struct gb_table *t);

/* The label of column `col` ("name (unit)"), or NULL past the last. */
GB_API const char *gb_table_label(const struct gb_table *t, size_t col);

/* The text a cell shows in the terminal table, markdown and report.html:
 * a number to its `sig` digits (gb_format_num), a value with its interval
 * as gb_format_ci writes it ("481.9 ± 1.3"), "" for an empty cell or one
 * past the table. The one formatting of cells every writer for people
 * uses. Returns the length snprintf would have written. */
GB_API int gb_table_shown(const struct gb_table *t, size_t row, size_t col, char *buf, size_t n);

/* gb_table_shown's text whole, however long, in a string the caller
 * frees; NULL when out of memory. */
GB_API char *gb_table_shown_dup(const struct gb_table *t, size_t row, size_t col);

/* Prints the table as a GitHub-flavoured markdown table ("|" escaped),
 * with the same cell texts as GB_FORMAT_TABLE. */
GB_API enum gb_status gb_table_print_markdown(const struct gb_table *t, FILE *f);

#endif
