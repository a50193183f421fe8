/* table.c - tables printed for people (aligned, fitted to the terminal) and
 * for programs (CSV, JSON), and the number formats they share. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <jansson.h>

#include "gpubound/table.h"

#define GB_PM "\xc2\xb1"          /* "±" */
#define GB_ELLIPSIS "\xe2\x80\xa6" /* "…" */
#define GB_COL_GAP 2
#define GB_MIN_CUT 6              /* a cut text column keeps at least this many characters */
#define GB_RATIO_PLACE_MIN (-12)  /* a ratio's ends are not written past 10^-12 */

enum gb_cell_kind { GB_CELL_EMPTY = 0, GB_CELL_TEXT, GB_CELL_NUM, GB_CELL_INT, GB_CELL_CI };

struct gb_cell {
    enum gb_cell_kind kind;
    char *text;
    double v, half;
    long long i;
    int sig;
    int at_place, place;   /* a number written to the decimal place 10^place */
};

struct gb_column {
    char *name, *unit, *label;
};

struct gb_table {
    struct gb_column *cols;
    size_t n_cols, cap_cols;
    struct gb_cell **rows;       /* each row has n_cols_at_creation cells, grown lazily */
    size_t *row_len;             /* cells allocated in each row */
    size_t n_rows, cap_rows;
    size_t cursor;               /* next cell of the last row */
};

/* ---- number formats ---- */

static int gb_format_nonfinite(char *buf, size_t n, double v)
{
    return snprintf(buf, n, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

int gb_format_num(char *buf, size_t n, double v, int sig)
{
    if (!isfinite(v))
        return gb_format_nonfinite(buf, n, v);
    if (sig <= 0)
        sig = 4;
    if (sig > 17)
        sig = 17;
    if (v == 0)
        return snprintf(buf, n, "0");
    /* Round to `sig` digits first, so that 9.9996 becomes 10.00 and not 10.000. */
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*e", sig - 1, v);
    double r = strtod(tmp, NULL);
    int e = (int)floor(log10(fabs(r)));
    if (e < -4 || e >= 15)
        return snprintf(buf, n, "%.*e", sig - 1, v);
    int decimals = sig - 1 - e;
    if (decimals < 0)
        decimals = 0;
    return snprintf(buf, n, "%.*f", decimals, v);
}

/* The decimal place (10^place) of the last digit gb_format_ci keeps for
 * a half width: two significant digits of it when its leading digits are
 * 100..354, one otherwise. */
static int gb_ci_place(double half)
{
    int e = (int)floor(log10(half));
    double lead3 = round(half / pow(10, e - 2));
    if (lead3 >= 1000) {
        lead3 /= 10;
        e++;
    }
    return lead3 <= 354 ? e - 1 : e;
}

/* The decimal place (10^place) of the last digit kept for an interval
 * lo..hi around v: gb_ci_place of its larger half width. 0 (place unset)
 * when the interval is empty or not finite. */
static int gb_interval_place(double v, double lo, double hi, int *place)
{
    if (!isfinite(v) || !isfinite(lo) || !isfinite(hi))
        return 0;
    double half = fmax(v - lo, hi - v);
    if (!isfinite(half) || half <= 0)
        return 0;
    *place = gb_ci_place(half);
    return 1;
}

/* A value that rounds to zero is "0", not "-0". */
static void gb_unsign_zero(char *b)
{
    if (b[0] == '-' && strspn(b + 1, "0.") == strlen(b + 1))
        memmove(b, b + 1, strlen(b));
}

int gb_format_place(char *buf, size_t n, double v, int place)
{
    char tmp[400];
    if (!isfinite(v))
        return gb_format_nonfinite(buf, n, v);
    if (place <= 0) {
        snprintf(tmp, sizeof tmp, "%.*f", -place, v);
    } else {
        double q = pow(10, place);
        snprintf(tmp, sizeof tmp, "%.0f", round(v / q) * q);
    }
    gb_unsign_zero(tmp);
    return snprintf(buf, n, "%s", tmp);
}

int gb_format_interval_sig(double x, double v, double lo, double hi, int fallback)
{
    int place;
    if (!isfinite(x) || x == 0 || !gb_interval_place(v, lo, hi, &place))
        return fallback;
    int sig = (int)floor(log10(fabs(x))) - place + 1;
    return sig < 1 ? 1 : sig > 17 ? 17 : sig;
}

/* Whether x, written to `place`, reads as 1 though it is not 1. */
static int gb_reads_as_one(double x, int place)
{
    char buf[400];
    gb_format_place(buf, sizeof buf, x, place);
    return x != 1 && strtod(buf, NULL) == 1;
}

int gb_format_ratio_place(double v, double lo, double hi, int *place)
{
    if (!gb_interval_place(v, lo, hi, place))
        return 0;
    while (*place > GB_RATIO_PLACE_MIN && (gb_reads_as_one(lo, *place) || gb_reads_as_one(hi, *place)))
        (*place)--;
    return 1;
}

/* The value and half width of a CI as two strings, rounded as gb_format_ci
 * documents; half is "" when the half width is not usable. */
static void gb_format_ci_parts(double v, double half, char *vb, size_t vn, char *hb, size_t hn)
{
    if (!isfinite(v) || !isfinite(half) || half <= 0) {
        gb_format_num(vb, vn, v, 4);
        hb[0] = '\0';
        return;
    }
    int place = gb_ci_place(half); /* decimal place of the last kept digit: 10^place */
    gb_format_place(vb, vn, v, place);
    gb_format_place(hb, hn, half, place);
}

int gb_format_ci(char *buf, size_t n, double v, double half_width)
{
    char vb[64], hb[64];
    gb_format_ci_parts(v, half_width, vb, sizeof vb, hb, sizeof hb);
    if (!hb[0])
        return snprintf(buf, n, "%s", vb);
    return snprintf(buf, n, "%s " GB_PM " %s", vb, hb);
}

/* The fewest significant digits (1 to 17) that read back to the same double. */
static int gb_exact_precision(double v)
{
    char buf[64];
    if (!isfinite(v))
        return 1;
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        if (strtod(buf, NULL) == v)
            return p;
    }
    return 17;
}

/* The shortest text that reads back to the same double, for programs (CSV,
 * JSON): plain from 1e-4 up to 1e17, where every digit is written out (10,
 * 10.5, 0.000123, 123456789012), with an exponent only outside (1.5e-07,
 * 2e+20); never "1e+01" for 10, as "%.1g" would have it. */
static void gb_format_exact(char *buf, size_t n, double v)
{
    char tmp[64];
    if (!isfinite(v)) {
        gb_format_nonfinite(buf, n, v);
        return;
    }
    int p = gb_exact_precision(v);
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, v);
    int e = atoi(strchr(tmp, 'e') + 1);   /* the exponent after rounding to p digits */
    if (e < -4 || e >= 17)
        snprintf(buf, n, "%.*g", p, v);
    else
        snprintf(buf, n, "%.*f", p - 1 - e > 0 ? p - 1 - e : 0, v);
}

int gb_term_width(FILE *f)
{
    int fd = fileno(f);
    if (fd < 0 || !isatty(fd))
        return 0;
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* ---- building ---- */

struct gb_table *gb_table_new(void)
{
    return calloc(1, sizeof(struct gb_table));
}

void gb_table_clear_rows(struct gb_table *t)
{
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->row_len[r]; c++)
            free(t->rows[r][c].text);
        free(t->rows[r]);
    }
    t->n_rows = 0;
    t->cursor = 0;
}

void gb_table_free(struct gb_table *t)
{
    if (!t)
        return;
    gb_table_clear_rows(t);
    for (size_t c = 0; c < t->n_cols; c++) {
        free(t->cols[c].name);
        free(t->cols[c].unit);
        free(t->cols[c].label);
    }
    free(t->cols);
    free(t->rows);
    free(t->row_len);
    free(t);
}

static char *gb_strdup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

enum gb_status gb_table_column(struct gb_table *t, const char *name, const char *unit)
{
    enum gb_status st = GB_OK;
    struct gb_column col = {0};
    if (!name || !*name)
        return gb_error_set(GB_ERR_USAGE, "a table column needs a name");
    col.name = gb_strdup_or_empty(name);
    col.unit = gb_strdup_or_empty(unit);
    if (!col.name || !col.unit) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory adding table column %s", name);
        goto out;
    }
    size_t ln = strlen(name) + strlen(col.unit) + 4;
    col.label = malloc(ln);
    if (!col.label) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory adding table column %s", name);
        goto out;
    }
    if (col.unit[0])
        snprintf(col.label, ln, "%s (%s)", name, col.unit);
    else
        snprintf(col.label, ln, "%s", name);
    for (size_t c = 0; c < t->n_cols; c++)
        if (strcmp(t->cols[c].label, col.label) == 0) {
            st = gb_error_set(GB_ERR_USAGE, "table column '%s' declared twice", col.label);
            goto out;
        }
    if (t->n_cols == t->cap_cols) {
        size_t cap = t->cap_cols ? 2 * t->cap_cols : 8;
        struct gb_column *nc = realloc(t->cols, cap * sizeof *nc);
        if (!nc) {
            st = gb_error_set(GB_ERR_NOMEM, "out of memory adding table column %s", name);
            goto out;
        }
        t->cols = nc;
        t->cap_cols = cap;
    }
    t->cols[t->n_cols++] = col;
    memset(&col, 0, sizeof col);
out:
    free(col.name);
    free(col.unit);
    free(col.label);
    return st;
}

enum gb_status gb_table_row(struct gb_table *t)
{
    if (t->n_rows == t->cap_rows) {
        size_t cap = t->cap_rows ? 2 * t->cap_rows : 16;
        struct gb_cell **nr = realloc(t->rows, cap * sizeof *nr);
        if (!nr)
            return gb_error_set(GB_ERR_NOMEM, "out of memory adding a table row");
        t->rows = nr;
        size_t *nl = realloc(t->row_len, cap * sizeof *nl);
        if (!nl)
            return gb_error_set(GB_ERR_NOMEM, "out of memory adding a table row");
        t->row_len = nl;
        t->cap_rows = cap;
    }
    size_t len = t->n_cols ? t->n_cols : 1;
    struct gb_cell *cells = calloc(len, sizeof *cells);
    if (!cells)
        return gb_error_set(GB_ERR_NOMEM, "out of memory adding a table row");
    t->rows[t->n_rows] = cells;
    t->row_len[t->n_rows] = len;
    t->n_rows++;
    t->cursor = 0;
    return GB_OK;
}

/* The next cell of the current row, or NULL (message set) when there is none. */
static struct gb_cell *gb_table_next(struct gb_table *t)
{
    if (t->n_rows == 0) {
        gb_error_set(GB_ERR_USAGE, "table cell added before the first row");
        return NULL;
    }
    if (t->cursor >= t->n_cols) {
        gb_error_set(GB_ERR_USAGE, "table row has more cells than the %zu columns", t->n_cols);
        return NULL;
    }
    size_t r = t->n_rows - 1;
    if (t->cursor >= t->row_len[r]) {
        /* Columns were added after this row started. */
        struct gb_cell *nc = realloc(t->rows[r], t->n_cols * sizeof *nc);
        if (!nc) {
            gb_error_set(GB_ERR_NOMEM, "out of memory growing a table row");
            return NULL;
        }
        memset(nc + t->row_len[r], 0, (t->n_cols - t->row_len[r]) * sizeof *nc);
        t->rows[r] = nc;
        t->row_len[r] = t->n_cols;
    }
    return &t->rows[r][t->cursor++];
}

enum gb_status gb_table_cell_empty(struct gb_table *t)
{
    return gb_table_next(t) ? GB_OK : GB_ERR_USAGE;
}

enum gb_status gb_table_cell_text(struct gb_table *t, const char *s)
{
    struct gb_cell *c = gb_table_next(t);
    if (!c)
        return GB_ERR_USAGE;
    if (!s)
        return GB_OK;
    c->text = strdup(s);
    if (!c->text)
        return gb_error_set(GB_ERR_NOMEM, "out of memory filling a table cell");
    c->kind = GB_CELL_TEXT;
    return GB_OK;
}

/* The next cell as a number v (NULL with *st set when there is no next
 * cell, or left empty for NaN: NULL with GB_OK). */
static struct gb_cell *num_cell(struct gb_table *t, double v, enum gb_status *st)
{
    struct gb_cell *c = gb_table_next(t);
    *st = c ? GB_OK : GB_ERR_USAGE;
    if (!c || isnan(v))
        return NULL;
    c->kind = GB_CELL_NUM;
    c->v = v;
    return c;
}

enum gb_status gb_table_cell_num(struct gb_table *t, double v, int sig)
{
    enum gb_status st;
    struct gb_cell *c = num_cell(t, v, &st);
    if (c)
        c->sig = sig;
    return st;
}

enum gb_status gb_table_cell_place(struct gb_table *t, double v, int place)
{
    enum gb_status st;
    struct gb_cell *c = num_cell(t, v, &st);
    if (c) {
        c->at_place = 1;
        c->place = place;
    }
    return st;
}

enum gb_status gb_table_cell_int(struct gb_table *t, long long v)
{
    struct gb_cell *c = gb_table_next(t);
    if (!c)
        return GB_ERR_USAGE;
    c->kind = GB_CELL_INT;
    c->i = v;
    return GB_OK;
}

enum gb_status gb_table_cell_ci(struct gb_table *t, double v, double half_width)
{
    struct gb_cell *c = gb_table_next(t);
    if (!c)
        return GB_ERR_USAGE;
    if (isnan(v))
        return GB_OK;
    c->kind = GB_CELL_CI;
    c->v = v;
    c->half = half_width;
    return GB_OK;
}

size_t gb_table_n_rows(const struct gb_table *t)
{
    return t->n_rows;
}

size_t gb_table_n_cols(const struct gb_table *t)
{
    return t->n_cols;
}

static const struct gb_cell gb_empty_cell;

static const struct gb_cell *gb_table_at(const struct gb_table *t, size_t r, size_t c)
{
    return c < t->row_len[r] ? &t->rows[r][c] : &gb_empty_cell;
}

/* ---- rendering for people ---- */

/* Display columns of UTF-8 text (one per code point: no wide characters here). */
static size_t gb_text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

/* Byte length of the first `w` display columns of s. */
static size_t gb_text_prefix(const char *s, size_t w)
{
    size_t i = 0, cols = 0;
    while (s[i]) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (cols == w)
                break;
            cols++;
        }
        i++;
    }
    return i;
}

/* "16", "-3", "1.5", "256M", "1e9": a number, with an optional K/M/G/T. */
static int gb_looks_numeric(const char *s)
{
    char *end;
    if (!isdigit((unsigned char)s[*s == '-' || *s == '+']))
        return 0;
    strtod(s, &end);
    if (end == s)
        return 0;
    if (*end && strchr("KMGTkmgt", *end))
        end++;
    return *end == '\0';
}

/* What a cell shows: the whole text, or for a CI the value and half width
 * apart so that a column can align them on the "±". A text is shown as it
 * is, however long (`a` points into the cell); a number is written into
 * `num`. Valid while the cell lives; not to be copied (a points into it). */
struct gb_shown {
    const char *a;
    char num[128];
    char b[64];   /* CI half width, "" otherwise */
};

static void gb_cell_show(const struct gb_cell *c, struct gb_shown *s)
{
    s->a = s->num;
    s->num[0] = s->b[0] = '\0';
    switch (c->kind) {
    case GB_CELL_EMPTY:
        break;
    case GB_CELL_TEXT:
        s->a = c->text;
        break;
    case GB_CELL_NUM:
        if (c->at_place)
            gb_format_place(s->num, sizeof s->num, c->v, c->place);
        else
            gb_format_num(s->num, sizeof s->num, c->v, c->sig);
        break;
    case GB_CELL_INT:
        snprintf(s->num, sizeof s->num, "%lld", c->i);
        break;
    case GB_CELL_CI:
        gb_format_ci_parts(c->v, c->half, s->num, sizeof s->num, s->b, sizeof s->b);
        break;
    }
}

struct gb_layout {
    size_t *width;      /* display width of each column */
    size_t *wa, *wb;    /* CI columns: widths of value and half-width parts */
    int *right;         /* right-aligned */
    int *is_text;       /* may be cut to fit */
};

static void gb_layout_free(struct gb_layout *l)
{
    free(l->width);
    free(l->wa);
    free(l->wb);
    free(l->right);
    free(l->is_text);
}

/* The widths and alignment of column c, from every cell and the label. */
static void gb_layout_column(const struct gb_table *t, struct gb_layout *l, size_t c)
{
    int any = 0, all_numeric = 1, any_text = 0;
    size_t wtext = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        const struct gb_cell *cell = gb_table_at(t, r, c);
        struct gb_shown s;
        if (cell->kind == GB_CELL_EMPTY)
            continue;
        any = 1;
        gb_cell_show(cell, &s);
        if (cell->kind == GB_CELL_TEXT) {
            any_text = 1;
            if (!gb_looks_numeric(s.a))
                all_numeric = 0;
        }
        if (cell->kind == GB_CELL_CI && s.b[0]) {
            size_t wa = gb_text_width(s.a), wb = gb_text_width(s.b);
            if (wa > l->wa[c])
                l->wa[c] = wa;
            if (wb > l->wb[c])
                l->wb[c] = wb;
        } else {
            size_t w = gb_text_width(s.a);
            if (w > wtext)
                wtext = w;
        }
    }
    l->right[c] = any && all_numeric;
    l->is_text[c] = any_text && !all_numeric;
    size_t w = gb_text_width(t->cols[c].label);
    if (wtext > w)
        w = wtext;
    if (l->wb[c]) {
        size_t wci = l->wa[c] + 3 + l->wb[c];
        if (wci > w)
            w = wci;
    }
    l->width[c] = w;
}

/* Cuts one text column of a table `excess` columns too wide: the widest
 * (of two as wide, the one further right: notes come last), no further
 * than the next widest. 0 when nothing is left to cut. */
static int gb_layout_cut(const struct gb_table *t, struct gb_layout *l, size_t excess)
{
    size_t best = SIZE_MAX;
    for (size_t c = 0; c < t->n_cols; c++)
        if (l->is_text[c] && l->width[c] > GB_MIN_CUT &&
            (best == SIZE_MAX || l->width[c] >= l->width[best]))
            best = c;
    if (best == SIZE_MAX)
        return 0;
    size_t room = l->width[best] - GB_MIN_CUT;
    size_t second = 0;
    for (size_t c = 0; c < t->n_cols; c++)
        if (c != best && l->is_text[c] && l->width[c] > second)
            second = l->width[c];
    size_t cut = excess < room ? excess : room;
    if (second > GB_MIN_CUT && l->width[best] - cut < second && l->width[best] > second)
        cut = l->width[best] - second;
    if (cut == 0)
        cut = 1;
    l->width[best] -= cut;
    return 1;
}

static enum gb_status gb_layout_make(const struct gb_table *t, struct gb_layout *l, int width)
{
    size_t n = t->n_cols ? t->n_cols : 1;
    l->width = calloc(n, sizeof *l->width);
    l->wa = calloc(n, sizeof *l->wa);
    l->wb = calloc(n, sizeof *l->wb);
    l->right = calloc(n, sizeof *l->right);
    l->is_text = calloc(n, sizeof *l->is_text);
    if (!l->width || !l->wa || !l->wb || !l->right || !l->is_text) {
        gb_layout_free(l);
        return gb_error_set(GB_ERR_NOMEM, "out of memory laying out a table");
    }
    for (size_t c = 0; c < t->n_cols; c++)
        gb_layout_column(t, l, c);
    if (width <= 0 || t->n_cols == 0)
        return GB_OK;
    /* Cut text columns until the table fits; the terminal wraps, we do not. */
    for (;;) {
        size_t total = 0;
        for (size_t c = 0; c < t->n_cols; c++)
            total += l->width[c] + (c ? GB_COL_GAP : 0);
        if (total <= (size_t)width || !gb_layout_cut(t, l, total - (size_t)width))
            break;
    }
    return GB_OK;
}

static void gb_put_spaces(FILE *f, size_t n)
{
    while (n--)
        fputc(' ', f);
}

/* Writes `s` in `w` columns; cuts it with an ellipsis when longer. `last`
 * drops trailing blanks. */
static void gb_put_field(FILE *f, const char *s, size_t w, int right, int last)
{
    size_t sw = gb_text_width(s);
    if (sw > w) {
        size_t keep = w ? w - 1 : 0;
        fwrite(s, 1, gb_text_prefix(s, keep), f);
        if (w)
            fputs(GB_ELLIPSIS, f);
        return;
    }
    if (right)
        gb_put_spaces(f, w - sw);
    fputs(s, f);
    if (!right && !last)
        gb_put_spaces(f, w - sw);
}

static void gb_put_cell(FILE *f, const struct gb_cell *cell, const struct gb_layout *l, size_t c,
                        int last)
{
    struct gb_shown s;
    gb_cell_show(cell, &s);
    if (l->wb[c] && cell->kind != GB_CELL_EMPTY) {
        /* CI column: value right-aligned before the "±", half width after. */
        size_t block = l->wa[c] + 3 + l->wb[c];
        size_t lead = l->width[c] > block ? l->width[c] - block : 0;
        gb_put_spaces(f, lead);
        gb_put_field(f, s.a, l->wa[c], 1, 0);
        if (s.b[0]) {
            fputs(" " GB_PM " ", f);
            gb_put_field(f, s.b, l->wb[c], 0, last);
        } else if (!last) {
            gb_put_spaces(f, 3 + l->wb[c]);
        }
        return;
    }
    gb_put_field(f, s.a, l->width[c], l->right[c], last);
}

static enum gb_status gb_print_text(const struct gb_table *t, FILE *f, int width)
{
    struct gb_layout l = {0};
    enum gb_status st = gb_layout_make(t, &l, width);
    if (st != GB_OK)
        return st;
    for (size_t c = 0; c < t->n_cols; c++) {
        if (c)
            gb_put_spaces(f, GB_COL_GAP);
        gb_put_field(f, t->cols[c].label, l.width[c], l.right[c], c + 1 == t->n_cols);
    }
    fputc('\n', f);
    for (size_t c = 0; c < t->n_cols; c++) {
        if (c)
            gb_put_spaces(f, GB_COL_GAP);
        for (size_t i = 0; i < l.width[c]; i++)
            fputc('-', f);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->n_rows; r++) {
        /* The last non-empty cell ends the line, so lines carry no trailing blanks. */
        size_t end = t->n_cols;
        while (end > 0 && gb_table_at(t, r, end - 1)->kind == GB_CELL_EMPTY)
            end--;
        for (size_t c = 0; c < end; c++) {
            if (c)
                gb_put_spaces(f, GB_COL_GAP);
            gb_put_cell(f, gb_table_at(t, r, c), &l, c, c + 1 == end);
        }
        fputc('\n', f);
    }
    gb_layout_free(&l);
    return GB_OK;
}

static void gb_put_markdown(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

const char *gb_table_label(const struct gb_table *t, size_t col)
{
    return col < t->n_cols ? t->cols[col].label : NULL;
}

int gb_table_shown(const struct gb_table *t, size_t row, size_t col, char *buf, size_t n)
{
    struct gb_shown s;
    if (row >= t->n_rows || col >= t->n_cols)
        return snprintf(buf, n, "%s", "");
    gb_cell_show(gb_table_at(t, row, col), &s);
    if (s.b[0])
        return snprintf(buf, n, "%s " GB_PM " %s", s.a, s.b);
    return snprintf(buf, n, "%s", s.a);
}

char *gb_table_shown_dup(const struct gb_table *t, size_t row, size_t col)
{
    int len = gb_table_shown(t, row, col, NULL, 0);
    char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (s)
        gb_table_shown(t, row, col, s, (size_t)len + 1);
    return s;
}

enum gb_status gb_table_print_markdown(const struct gb_table *t, FILE *f)
{
    struct gb_layout l = {0};
    enum gb_status st = gb_layout_make(t, &l, 0);
    if (st != GB_OK)
        return st;
    fputc('|', f);
    for (size_t c = 0; c < t->n_cols; c++) {
        fputc(' ', f);
        gb_put_markdown(f, t->cols[c].label);
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (size_t c = 0; c < t->n_cols; c++)
        fputs(l.right[c] || l.wb[c] ? " ---: |" : " --- |", f);
    fputc('\n', f);
    for (size_t r = 0; r < t->n_rows; r++) {
        fputc('|', f);
        for (size_t c = 0; c < t->n_cols; c++) {
            char *text = gb_table_shown_dup(t, r, c);
            if (!text) {
                gb_layout_free(&l);
                return gb_error_set(GB_ERR_NOMEM, "out of memory writing a markdown table");
            }
            fputc(' ', f);
            gb_put_markdown(f, text);
            fputs(" |", f);
            free(text);
        }
        fputc('\n', f);
    }
    gb_layout_free(&l);
    return ferror(f) ? gb_error_set(GB_ERR_IO, "cannot write a markdown table") : GB_OK;
}

/* ---- rendering for programs ---- */

static int gb_column_has_ci(const struct gb_table *t, size_t c)
{
    for (size_t r = 0; r < t->n_rows; r++)
        if (gb_table_at(t, r, c)->kind == GB_CELL_CI)
            return 1;
    return 0;
}

/* gb_column_has_ci of every column, once (a row loop must not rescan the
 * table per cell); NULL when out of memory. */
static unsigned char *gb_ci_columns(const struct gb_table *t)
{
    unsigned char *v = calloc(t->n_cols ? t->n_cols : 1, 1);
    for (size_t c = 0; v && c < t->n_cols; c++)
        v[c] = (unsigned char)gb_column_has_ci(t, c);
    return v;
}

static void gb_half_label(const struct gb_column *col, char *buf, size_t n)
{
    if (col->unit[0])
        snprintf(buf, n, "%s " GB_PM " (%s)", col->name, col->unit);
    else
        snprintf(buf, n, "%s " GB_PM, col->name);
}

static void gb_put_csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void gb_put_csv_num(FILE *f, double v)
{
    char buf[64];
    if (isnan(v))
        return;
    gb_format_exact(buf, sizeof buf, v);
    fputs(buf, f);
}

enum gb_status gb_table_print_csv_part(const struct gb_table *t, FILE *f, int header)
{
    unsigned char *has_ci = gb_ci_columns(t);
    if (!has_ci)
        return gb_error_set(GB_ERR_NOMEM, "out of memory writing CSV");
    for (size_t c = 0; header && c < t->n_cols; c++) {
        if (c)
            fputc(',', f);
        gb_put_csv_field(f, t->cols[c].label);
        if (has_ci[c]) {
            char hl[256];
            gb_half_label(&t->cols[c], hl, sizeof hl);
            fputc(',', f);
            gb_put_csv_field(f, hl);
        }
    }
    if (header)
        fputc('\n', f);
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->n_cols; c++) {
            const struct gb_cell *cell = gb_table_at(t, r, c);
            int ci = has_ci[c];
            if (c)
                fputc(',', f);
            switch (cell->kind) {
            case GB_CELL_EMPTY:
                break;
            case GB_CELL_TEXT:
                gb_put_csv_field(f, cell->text);
                break;
            case GB_CELL_NUM:
            case GB_CELL_CI:
                gb_put_csv_num(f, cell->v);
                break;
            case GB_CELL_INT:
                fprintf(f, "%lld", cell->i);
                break;
            }
            if (ci) {
                fputc(',', f);
                if (cell->kind == GB_CELL_CI && isfinite(cell->half))
                    gb_put_csv_num(f, cell->half);
            }
        }
        fputc('\n', f);
    }
    free(has_ci);
    return GB_OK;
}

static enum gb_status gb_print_csv(const struct gb_table *t, FILE *f, int width)
{
    (void)width;
    return gb_table_print_csv_part(t, f, 1);
}

/* A JSON text (a quoted string, or null for a text that is not valid
 * UTF-8) to `f`, escaped as jansson escapes it. */
static int gb_put_json_string(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    int rc = j ? json_dumpf(j, f, JSON_ENCODE_ANY) : fputs("null", f) < 0;
    json_decref(j);
    return rc;
}

/* A number as JSON: the exact text of gb_format_exact, with ".0" where it
 * would read as an integer (a real stays a real); null when not finite. */
static void gb_put_json_num(FILE *f, double v)
{
    char buf[64];
    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    gb_format_exact(buf, sizeof buf, v);
    fprintf(f, "%s%s", buf, strpbrk(buf, ".e") ? "" : ".0");
}

/* One cell's value as JSON. */
static int gb_put_json_cell(FILE *f, const struct gb_cell *cell)
{
    switch (cell->kind) {
    case GB_CELL_TEXT: return gb_put_json_string(f, cell->text);
    case GB_CELL_NUM:
    case GB_CELL_CI: gb_put_json_num(f, cell->v); return 0;
    case GB_CELL_INT: fprintf(f, "%lld", cell->i); return 0;
    case GB_CELL_EMPTY: break;
    }
    fputs("null", f);
    return 0;
}

/* One row as a JSON object, its columns in order ("label": value, and a
 * confidence column's half width after it). */
static int gb_put_json_row(const struct gb_table *t, size_t r, const unsigned char *has_ci, FILE *f)
{
    int rc = 0;
    fputc('{', f);
    for (size_t c = 0; c < t->n_cols && rc == 0; c++) {
        const struct gb_cell *cell = gb_table_at(t, r, c);
        fputs(c ? ", " : "", f);
        rc = gb_put_json_string(f, t->cols[c].label) || fputs(": ", f) < 0 || gb_put_json_cell(f, cell);
        if (rc == 0 && has_ci[c]) {
            char hl[256];
            gb_half_label(&t->cols[c], hl, sizeof hl);
            rc = fputs(", ", f) < 0 || gb_put_json_string(f, hl) || fputs(": ", f) < 0;
            if (cell->kind == GB_CELL_CI)
                gb_put_json_num(f, cell->half);
            else
                fputs("null", f);
        }
    }
    fputc('}', f);
    return rc;
}

static enum gb_status gb_print_json(const struct gb_table *t, FILE *f, int width)
{
    (void)width;
    unsigned char *has_ci = gb_ci_columns(t);
    if (!has_ci)
        return gb_error_set(GB_ERR_NOMEM, "out of memory writing JSON");
    fputs("[", f);
    for (size_t r = 0; r < t->n_rows; r++) {
        fputs(r ? ",\n " : "\n ", f);
        if (gb_put_json_row(t, r, has_ci, f) != 0) {
            free(has_ci);
            return gb_error_set(GB_ERR_IO, "cannot write JSON");
        }
    }
    fputs(t->n_rows ? "\n]\n" : "]\n", f);
    free(has_ci);
    return GB_OK;
}

/* ---- output formats ---- */

/* The output formats (--format), a row each: its value, its name, its
 * printer. Adding a format is a value of enum gb_format, a printer and a
 * row (docs/architecture.md). */
static const struct gb_format_row {
    enum gb_format fmt;
    const char *name;
    enum gb_status (*print)(const struct gb_table *t, FILE *f, int width);
} gb_format_rows[] = {
    {GB_FORMAT_TABLE, "table", gb_print_text},
    {GB_FORMAT_CSV, "csv", gb_print_csv},
    {GB_FORMAT_JSON, "json", gb_print_json},
};
#define GB_N_FORMATS (sizeof gb_format_rows / sizeof gb_format_rows[0])

enum gb_status gb_format_parse(const char *s, enum gb_format *out)
{
    char names[256];
    size_t used = 0;
    for (size_t i = 0; i < GB_N_FORMATS; i++) {
        if (s && strcmp(s, gb_format_rows[i].name) == 0) {
            *out = gb_format_rows[i].fmt;
            return GB_OK;
        }
        /* "table, csv or json" */
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                 i == 0 ? "" : i + 1 < GB_N_FORMATS ? ", " : " or ", gb_format_rows[i].name);
        used = used < sizeof names ? used : sizeof names - 1;
    }
    return gb_error_set(GB_ERR_USAGE, "unknown format '%s' (use %s)", s ? s : "", names);
}

enum gb_status gb_table_print(const struct gb_table *t, FILE *f, enum gb_format fmt, int width)
{
    enum gb_status st = GB_ERR_USAGE;
    size_t i = 0;
    while (i < GB_N_FORMATS && gb_format_rows[i].fmt != fmt)
        i++;
    if (i == GB_N_FORMATS)
        return gb_error_set(GB_ERR_USAGE, "unknown table format %d", (int)fmt);
    st = gb_format_rows[i].print(t, f, width);
    if (st == GB_OK && (fflush(f) != 0 || ferror(f)))
        st = gb_error_set(GB_ERR_IO, "cannot write a table: %s", strerror(errno));
    return st;
}
