/* geometry.c - the block-geometry advisor over the records of a ubench run:
 * shapes ranked and marked as uBench's Figure 1 marks them, compared with the
 * 'maximize occupancy' and 'square blocks' rules, per bench or per class of
 * the paper's kernels. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/geometry.h"

/* A ratio this close above a threshold still counts as within it: the
 * thresholds are inclusive, and t / best can round up by an ulp. */
#define GB_GEO_EPS 1e-9

/* ---- the classes ----
 * The paper's kernels by what they do (sections 5.1-5.5, where its results
 * are discussed in these groups) and by the columns of its Table 2: write
 * pattern, read pattern, load ratio and in-block data reuse. */
static const struct gb_geo_class gb_geo_class_table[] = {
    {"scheduling", "ubench0", "section 5.1",
     "no memory access and no computation: the block scheduler alone"},
    {"coalesced-write", "ubench1,ubench2", "section 5.2",
     "one coalesced write of a constant per thread (patterns I, II), low load"},
    {"overload", "ubench3,ubench4,ubench7,ubench10,ubench11", "sections 5.2, 5.4; Table 2 high load",
     "a loop of 1000 iterations between memory accesses that can hide their latency"},
    {"non-coalesced", "ubench5,ubench6", "section 5.3",
     "non-coalesced (pattern III) and scarce (pattern IV, one thread per block) writes"},
    {"coalesced-read", "ubench8,ubench9", "section 5.4",
     "each thread reads a whole column (pattern A) or row (pattern B), low load"},
    {"block-reuse", "ubench12", "section 5.4",
     "the threads of a block re-read one block of data (pattern C), no reuse across blocks"},
    {"traverse", "ubench13,ubench14", "section 5.4",
     "every thread reads the whole array from a start set by its block (patterns D(1), D(32))"},
    {"cannon", "cannon_direct,cannon_shifted", "section 5.5",
     "Cannon's matrix multiply, direct and with blocks starting on different memory regions"},
    {"write-I", "ubench1,ubench3,ubench8,ubench9,ubench10,ubench11,ubench13,ubench14", "Table 2",
     "write pattern I: one element at the thread's global (row, column)"},
    {"write-II", "ubench2,ubench4,ubench12", "Table 2",
     "write pattern II: one element at the thread's flattened global index"},
    {"write-III", "ubench5", "Table 2",
     "write pattern III: the diagonal element of the thread's index in its block"},
    {"write-IV", "ubench6", "Table 2", "write pattern IV: one thread per block writes"},
    {"write-V", "ubench7", "Table 2", "write pattern V: every thread writes the first element"},
    {"read-none", "ubench1,ubench2,ubench3,ubench4,ubench5,ubench6,ubench7", "Table 2",
     "kernels that write without reading"},
    {"read-A", "ubench8,ubench10", "Table 2", "read pattern A: each thread reads its whole column"},
    {"read-B", "ubench9,ubench11", "Table 2", "read pattern B: each thread reads its whole row"},
    {"read-C", "ubench12", "Table 2", "read pattern C: each thread reads its block's block of data"},
    {"read-D", "ubench13,ubench14", "Table 2",
     "read pattern D(s): each thread reads the whole array, cyclically from a block's start"},
    {"load-low", "ubench1,ubench2,ubench5,ubench6,ubench8,ubench9,ubench12,ubench13,ubench14",
     "Table 2", "at most one arithmetic operation per element accessed"},
    {"shape-reuse", "ubench8,ubench9,ubench10,ubench11", "Table 2 (reuse 'Shape')",
     "data reuse inside a block that depends on the block's exact shape"},
    {"ubench", "ubench0,ubench1,ubench2,ubench3,ubench4,ubench5,ubench6,ubench7,ubench8,ubench9,"
               "ubench10,ubench11,ubench12,ubench13,ubench14",
     "sections 4.2, 5", "every uBench kernel"},
};

const struct gb_geo_class *gb_geo_classes(size_t *n)
{
    *n = sizeof gb_geo_class_table / sizeof gb_geo_class_table[0];
    return gb_geo_class_table;
}

const struct gb_geo_class *gb_geo_class_find(const char *name)
{
    size_t n;
    const struct gb_geo_class *c = gb_geo_classes(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(c[i].name, name) == 0)
            return &c[i];
    return NULL;
}

int gb_geo_class_has(const struct gb_geo_class *c, const char *bench)
{
    size_t len = strlen(bench);
    for (const char *p = c->benches; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, bench, n) == 0)
            return 1;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

const char *gb_geo_mark_name(enum gb_geo_mark m)
{
    switch (m) {
    case GB_GEO_BEST: return "best";
    case GB_GEO_WITHIN_5: return "within 5%";
    case GB_GEO_WITHIN_25: return "within 25%";
    case GB_GEO_OTHER: return "other";
    }
    return "?";
}

int gb_geo_square(int rows, int cols)
{
    if (rows < 1 || cols < 1)
        return 0;
    long t = (long)rows * cols, a = 1;
    for (long d = 1; d * d <= t; d++)
        if (t % d == 0)
            a = d;
    return (rows < cols ? rows : cols) == a;
}

/* ---- the set ---- */

enum gb_geo_use {
    GB_USE_OK = 0,            /* an ok record used */
    GB_USE_NOT_OK,            /* failed, skipped or error: ignored */
    GB_USE_MALFORMED,         /* ok, but no valid shape or time: ignored */
    GB_USE_SUPERSEDED,        /* ok, but a later ok record of its shape is used */
};

struct gb_geo_entry {
    int bench, size, cache;   /* indices into the set's lists */
    int ok;                   /* 1: used (use == GB_USE_OK) */
    enum gb_geo_use use;
    int rows, cols;
    double time_ns, occupancy;
    int max_occ;              /* 1, 0, -1 unknown */
    size_t order;             /* position among the records */
};

struct gb_strlist {
    char **v;
    size_t n, cap;
};

struct gb_geo_set {
    struct gb_strlist benches, sizes, caches;
    struct gb_geo_entry *e;
    size_t n;
    struct gb_geo_counts counts;
};

static const char *const gb_geo_known_benches[] = {
    "ubench0", "ubench1", "ubench2", "ubench3", "ubench4", "ubench5", "ubench6", "ubench7",
    "ubench8", "ubench9", "ubench10", "ubench11", "ubench12", "ubench13", "ubench14",
    "cannon_direct", "cannon_shifted", NULL};
int gb_geo_known_bench(const char *bench)
{
    for (size_t i = 0; gb_geo_known_benches[i]; i++)
        if (strcmp(gb_geo_known_benches[i], bench) == 0)
            return 1;
    return 0;
}

static const char *const gb_geo_known_sizes[] = {"small", "medium", "large", NULL};
static const char *const gb_geo_known_caches[] = {"min", "default", "max", NULL};

static int gb_strlist_find(const struct gb_strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return (int)i;
    return -1;
}

/* Index of `s` in the list, added when new; -1 when out of memory. */
static int gb_strlist_intern(struct gb_strlist *l, const char *s)
{
    int i = gb_strlist_find(l, s);
    if (i >= 0)
        return i;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(s)))
        return -1;
    return (int)l->n++;
}

static void gb_strlist_free(struct gb_strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static size_t gb_known_rank(const char *const *known, const char *s)
{
    for (size_t i = 0; known[i]; i++)
        if (strcmp(known[i], s) == 0)
            return i;
    return SIZE_MAX;
}

/* Puts the list in its fixed order (known values first, then the others in
 * order of appearance) and fills map[old index] = new index. */
static enum gb_status gb_strlist_order(struct gb_strlist *l, const char *const *known, int *map)
{
    char **v = malloc((l->n ? l->n : 1) * sizeof *v);
    if (!v)
        return gb_error_set(GB_ERR_NOMEM, "out of memory ordering the geometry records");
    size_t k = 0;
    for (size_t j = 0; known[j]; j++) {
        int i = gb_strlist_find(l, known[j]);
        if (i >= 0) {
            map[i] = (int)k;
            v[k++] = l->v[i];
        }
    }
    for (size_t i = 0; i < l->n; i++)
        if (gb_known_rank(known, l->v[i]) == SIZE_MAX) {
            map[i] = (int)k;
            v[k++] = l->v[i];
        }
    free(l->v);
    l->v = v;
    l->cap = l->n;
    return GB_OK;
}

/* A block side: a whole number from 1 to 1<<20. */
static int gb_parse_side(const char *s)
{
    char *end;
    if (!s || !*s)
        return 0;
    long v = strtol(s, &end, 10);
    if (*end || v < 1 || v > (1L << 20))
        return 0;
    return (int)v;
}

/* A kernel-spec bench with a block_size_x axis (Kernel Tuner's convention)
 * is advised too: its block is block_size_x wide and block_size_y (default
 * 1) tall, its size the problem axis n. */
static int gb_geo_spec_record(const struct gb_record *r)
{
    return strcmp(r->suite, GB_GEO_SUITE) != 0 && gb_record_axis(r, "block_size_x") != NULL;
}

/* The record's size: the axis size, or a kernel spec's problem axis n. */
static const char *gb_geo_record_size(const struct gb_record *r, int spec)
{
    return gb_record_axis(r, spec ? "n" : "size");
}

/* The block shape of record `r` into e->rows and e->cols (0 when malformed). */
static void gb_geo_entry_shape(const struct gb_record *r, int spec, struct gb_geo_entry *e)
{
    if (spec) {
        const char *by = gb_record_axis(r, "block_size_y");
        e->rows = by ? gb_parse_side(by) : 1;
        e->cols = gb_parse_side(gb_record_axis(r, "block_size_x"));
    } else {
        e->rows = gb_parse_side(gb_record_axis(r, "rows"));
        e->cols = gb_parse_side(gb_record_axis(r, "cols"));
    }
}

static int gb_entry_key_cmp(const void *pa, const void *pb)
{
    const struct gb_geo_entry *a = pa, *b = pb;
    int d;
    if ((d = (a->bench > b->bench) - (a->bench < b->bench)) != 0 ||
        (d = (a->size > b->size) - (a->size < b->size)) != 0 ||
        (d = (a->cache > b->cache) - (a->cache < b->cache)) != 0 ||
        (d = (a->rows > b->rows) - (a->rows < b->rows)) != 0 ||
        (d = (a->cols > b->cols) - (a->cols < b->cols)) != 0)
        return d;
    return (a->order > b->order) - (a->order < b->order);
}

enum gb_status gb_geo_set_new(const struct gb_record *recs, size_t n, struct gb_geo_set **out)
{
    enum gb_status st = GB_OK;
    int *bmap = NULL, *smap = NULL, *cmap = NULL;
    struct gb_geo_set *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s || (n && !(s->e = calloc(n, sizeof *s->e)))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory indexing %zu records", n);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        const struct gb_record *r = &recs[i];
        const int spec = gb_geo_spec_record(r);
        if (strcmp(r->suite, GB_GEO_SUITE) != 0 && !spec) {
            s->counts.other_suites++;
            continue;
        }
        s->counts.records++;
        const char *size = gb_geo_record_size(r, spec), *cache = gb_record_axis(r, "cache");
        struct gb_geo_entry *e = &s->e[s->n];
        e->order = i;
        e->bench = gb_strlist_intern(&s->benches, r->bench);
        e->size = gb_strlist_intern(&s->sizes, size ? size : "-");
        e->cache = gb_strlist_intern(&s->caches, cache ? cache : "-");
        if (e->bench < 0 || e->size < 0 || e->cache < 0) {
            st = gb_error_set(GB_ERR_NOMEM, "out of memory indexing %zu records", n);
            goto out;
        }
        gb_geo_entry_shape(r, spec, e);
        e->time_ns = r->time_ns.median;
        e->occupancy = gb_record_metric(r, "occupancy", NAN);
        double mo = gb_record_metric(r, "max_occupancy", NAN);
        e->max_occ = isfinite(mo) ? mo != 0 : -1;
        s->n++;
        if (r->status != GB_REC_OK) {
            e->use = GB_USE_NOT_OK;
            s->counts.not_ok++;
            continue;
        }
        if (!e->rows || !e->cols || !isfinite(e->time_ns) || e->time_ns <= 0) {
            e->use = GB_USE_MALFORMED;
            s->counts.malformed++;
            continue;
        }
        e->ok = 1;
        e->use = GB_USE_OK;
        s->counts.ok++;
    }
    if (!(bmap = malloc((s->benches.n + 1) * sizeof *bmap)) ||
        !(smap = malloc((s->sizes.n + 1) * sizeof *smap)) ||
        !(cmap = malloc((s->caches.n + 1) * sizeof *cmap))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory indexing %zu records", n);
        goto out;
    }
    if ((st = gb_strlist_order(&s->benches, gb_geo_known_benches, bmap)) != GB_OK ||
        (st = gb_strlist_order(&s->sizes, gb_geo_known_sizes, smap)) != GB_OK ||
        (st = gb_strlist_order(&s->caches, gb_geo_known_caches, cmap)) != GB_OK)
        goto out;
    for (size_t i = 0; i < s->n; i++) {
        s->e[i].bench = bmap[s->e[i].bench];
        s->e[i].size = smap[s->e[i].size];
        s->e[i].cache = cmap[s->e[i].cache];
    }
    /* Sorted by group and shape, record order last: of two ok records of one
     * shape the later supersedes the earlier (a point measured again). */
    if (s->n)
        qsort(s->e, s->n, sizeof *s->e, gb_entry_key_cmp);
    for (size_t i = 0; i + 1 < s->n; i++) {
        const struct gb_geo_entry *a = &s->e[i], *b = &s->e[i + 1];
        if (a->bench != b->bench || a->size != b->size || a->cache != b->cache ||
            a->rows != b->rows || a->cols != b->cols || !a->ok)
            continue;
        /* a later ok record of the same shape follows in the run? */
        for (size_t j = i + 1; j < s->n && s->e[j].bench == a->bench && s->e[j].size == a->size &&
                               s->e[j].cache == a->cache && s->e[j].rows == a->rows &&
                               s->e[j].cols == a->cols;
             j++)
            if (s->e[j].ok) {
                s->e[i].ok = 0;
                s->e[i].use = GB_USE_SUPERSEDED;
                s->counts.duplicates++;
                s->counts.ok--;
                break;
            }
    }
    *out = s;
    s = NULL;
out:
    free(bmap);
    free(smap);
    free(cmap);
    gb_geo_set_free(s);
    return st;
}

void gb_geo_set_free(struct gb_geo_set *s)
{
    if (!s)
        return;
    gb_strlist_free(&s->benches);
    gb_strlist_free(&s->sizes);
    gb_strlist_free(&s->caches);
    free(s->e);
    free(s);
}

void gb_geo_set_counts(const struct gb_geo_set *s, struct gb_geo_counts *out)
{
    *out = s->counts;
}

size_t gb_geo_set_n_benches(const struct gb_geo_set *s) { return s->benches.n; }
const char *gb_geo_set_bench(const struct gb_geo_set *s, size_t i) { return i < s->benches.n ? s->benches.v[i] : NULL; }
size_t gb_geo_set_n_sizes(const struct gb_geo_set *s) { return s->sizes.n; }
const char *gb_geo_set_size(const struct gb_geo_set *s, size_t i) { return i < s->sizes.n ? s->sizes.v[i] : NULL; }
size_t gb_geo_set_n_caches(const struct gb_geo_set *s) { return s->caches.n; }
const char *gb_geo_set_cache(const struct gb_geo_set *s, size_t i) { return i < s->caches.n ? s->caches.v[i] : NULL; }

/* -1: matches anything (NULL asked); -2: a value the set does not have. */
static int gb_lookup(const struct gb_strlist *l, const char *s)
{
    if (!s)
        return -1;
    int i = gb_strlist_find(l, s);
    return i < 0 ? -2 : i;
}

size_t gb_geo_set_n_records(const struct gb_geo_set *s, const char *bench, const char *size,
                            const char *cache)
{
    int b = gb_lookup(&s->benches, bench), z = gb_lookup(&s->sizes, size),
        c = gb_lookup(&s->caches, cache);
    size_t k = 0;
    if (b == -2 || z == -2 || c == -2)
        return 0;
    for (size_t i = 0; i < s->n; i++)
        if ((b < 0 || s->e[i].bench == b) && (z < 0 || s->e[i].size == z) &&
            (c < 0 || s->e[i].cache == c))
            k++;
    return k;
}

/* ---- ranking ---- */

static int gb_shape_cmp(const void *pa, const void *pb)
{
    const struct gb_geo_shape *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    if (a->threads != b->threads)
        return a->threads < b->threads ? -1 : 1;
    return (a->rows > b->rows) - (a->rows < b->rows);
}

/* Given shapes with score, worst_ratio (class) and occupancy filled: sorts,
 * marks, ranks, and fills the comparisons. */
static void gb_geo_finish(struct gb_geo_result *r)
{
    r->best_max_occ = r->worst_max_occ = r->best_square = -1;
    r->max_occ_necessary = r->max_occ_sufficient = -1;
    r->n_best = r->n_good = r->n_fair = r->n_max_occ = r->n_good_max_occ = r->n_square = 0;
    r->good_min_threads = r->good_max_threads = r->good_min_cols = r->good_max_cols = 0;
    r->occ_known = 1;
    if (!r->n_shapes)
        return;
    for (size_t i = 0; i < r->n_shapes; i++)
        r->shapes[i].threads = r->shapes[i].rows * r->shapes[i].cols;
    qsort(r->shapes, r->n_shapes, sizeof *r->shapes, gb_shape_cmp);
    double best = r->shapes[0].score;
    for (size_t i = 0; i < r->n_shapes; i++) {
        struct gb_geo_shape *sh = &r->shapes[i];
        sh->ratio = sh->score / best;
        if (!r->is_class)
            sh->worst_ratio = sh->ratio;
        sh->rank = i > 0 && sh->score == r->shapes[i - 1].score ? r->shapes[i - 1].rank : (int)i + 1;
        sh->square = gb_geo_square(sh->rows, sh->cols);
        if (sh->score == best)
            sh->mark = GB_GEO_BEST;
        else if (sh->ratio <= 1.0 + GB_GEO_GOOD + GB_GEO_EPS)
            sh->mark = GB_GEO_WITHIN_5;
        else if (sh->ratio <= 1.0 + GB_GEO_FAIR + GB_GEO_EPS)
            sh->mark = GB_GEO_WITHIN_25;
        else
            sh->mark = GB_GEO_OTHER;
        int good = sh->mark <= GB_GEO_WITHIN_5;
        r->n_best += sh->mark == GB_GEO_BEST;
        r->n_good += good;
        r->n_fair += sh->mark <= GB_GEO_WITHIN_25;
        if (sh->max_occupancy < 0)
            r->occ_known = 0;
        if (sh->max_occupancy == 1) {
            r->n_max_occ++;
            r->n_good_max_occ += good;
            if (r->best_max_occ < 0)
                r->best_max_occ = (int)i;
            r->worst_max_occ = (int)i;
        }
        if (sh->square) {
            r->n_square++;
            if (r->best_square < 0)
                r->best_square = (int)i;
        }
        if (good) {
            if (!r->good_min_threads || sh->threads < r->good_min_threads)
                r->good_min_threads = sh->threads;
            if (sh->threads > r->good_max_threads)
                r->good_max_threads = sh->threads;
            if (!r->good_min_cols || sh->cols < r->good_min_cols)
                r->good_min_cols = sh->cols;
            if (sh->cols > r->good_max_cols)
                r->good_max_cols = sh->cols;
        }
    }
    if (r->occ_known) {
        r->max_occ_necessary = r->n_good_max_occ == r->n_good;
        if (r->n_max_occ)
            r->max_occ_sufficient = r->n_good_max_occ == r->n_max_occ;
    }
}

static enum gb_status gb_geo_group_check(const struct gb_geo_set *s, const char *what,
                                         const char *size, const char *cache, int *z, int *c)
{
    *z = gb_strlist_find(&s->sizes, size);
    *c = gb_strlist_find(&s->caches, cache);
    if (*z < 0 || *c < 0)
        return gb_error_set(GB_ERR_USAGE, "no ubench record of %s at size=%s, cache=%s", what,
                            size, cache);
    return GB_OK;
}

static void gb_geo_result_init(struct gb_geo_result *out, const char *name, const char *size,
                               const char *cache, int is_class)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    snprintf(out->size, sizeof out->size, "%s", size);
    snprintf(out->cache, sizeof out->cache, "%s", cache);
    out->is_class = is_class;
}

enum gb_status gb_geo_analyze_bench(const struct gb_geo_set *s, const char *bench, const char *size,
                                    const char *cache, struct gb_geo_result *out)
{
    int b = gb_strlist_find(&s->benches, bench), z, c;
    size_t n_rec = 0;
    enum gb_status st;
    gb_geo_result_init(out, bench, size, cache, 0);
    if (b < 0)
        return gb_error_set(GB_ERR_USAGE, "no ubench record of bench '%s'", bench);
    if ((st = gb_geo_group_check(s, bench, size, cache, &z, &c)) != GB_OK)
        return st;
    for (size_t i = 0; i < s->n; i++)
        n_rec += s->e[i].bench == b && s->e[i].size == z && s->e[i].cache == c;
    if (!n_rec)
        return gb_error_set(GB_ERR_USAGE, "no ubench record of %s at size=%s, cache=%s", bench, size,
                            cache);
    if (!(out->shapes = calloc(n_rec, sizeof *out->shapes)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory ranking %zu shapes", n_rec);
    snprintf(out->benches, sizeof out->benches, "%s", bench);
    for (size_t i = 0; i < s->n; i++) {
        const struct gb_geo_entry *e = &s->e[i];
        if (e->bench != b || e->size != z || e->cache != c)
            continue;
        if (!e->ok) {
            out->n_not_ok += e->use == GB_USE_NOT_OK;
            continue;
        }
        struct gb_geo_shape *sh = &out->shapes[out->n_shapes++];
        sh->rows = e->rows;
        sh->cols = e->cols;
        sh->time_ns = sh->score = e->time_ns;
        sh->occupancy = e->occupancy;
        sh->max_occupancy = e->max_occ;
    }
    out->n_benches = out->n_shapes ? 1 : 0;
    gb_geo_finish(out);
    return GB_OK;
}

/* One bench's ok shapes in a group. */
struct gb_geo_col {
    int bench;
    size_t n;
    const struct gb_geo_entry **e;
    double best_ns;
};

static const struct gb_geo_entry *gb_col_find(const struct gb_geo_col *col, int rows, int cols)
{
    for (size_t i = 0; i < col->n; i++)
        if (col->e[i]->rows == rows && col->e[i]->cols == cols)
            return col->e[i];
    return NULL;
}

static void gb_list_add(char *buf, size_t n, const char *s)
{
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s%s", len ? "," : "", s);
}

enum gb_status gb_geo_analyze_class(const struct gb_geo_set *s, const struct gb_geo_class *cls,
                                    const char *size, const char *cache,
                                    struct gb_geo_result *out)
{
    enum gb_status st = GB_OK;
    struct gb_geo_col *cols = NULL;
    size_t n_cols = 0, n_rec = 0;
    int z, c;
    gb_geo_result_init(out, cls->name, size, cache, 1);
    if ((st = gb_geo_group_check(s, cls->name, size, cache, &z, &c)) != GB_OK)
        return st;
    if (!(cols = calloc(s->benches.n + 1, sizeof *cols)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory aggregating class %s", cls->name);
    for (size_t b = 0; b < s->benches.n; b++) {
        if (!gb_geo_class_has(cls, s->benches.v[b]))
            continue;
        size_t n_b = 0, n_ok = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->e[i].bench == (int)b && s->e[i].size == z && s->e[i].cache == c) {
                n_b++;
                n_ok += s->e[i].ok;
                out->n_not_ok += s->e[i].use == GB_USE_NOT_OK;
            }
        n_rec += n_b;
        if (!n_ok)
            continue;
        struct gb_geo_col *col = &cols[n_cols];
        if (!(col->e = malloc(n_ok * sizeof *col->e))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of memory aggregating class %s", cls->name);
            goto out;
        }
        col->bench = (int)b;
        col->best_ns = INFINITY;
        for (size_t i = 0; i < s->n; i++)
            if (s->e[i].ok && s->e[i].bench == (int)b && s->e[i].size == z && s->e[i].cache == c) {
                col->e[col->n++] = &s->e[i];
                if (s->e[i].time_ns < col->best_ns)
                    col->best_ns = s->e[i].time_ns;
            }
        n_cols++;
        gb_list_add(out->benches, sizeof out->benches, s->benches.v[b]);
    }
    /* The class's benches without an ok record here, in the class's order. */
    for (const char *p = cls->benches; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        int b = gb_strlist_find(&s->benches, name), found = 0;
        for (size_t k = 0; k < n_cols; k++)
            found |= cols[k].bench == b;
        if (!found)
            gb_list_add(out->missing, sizeof out->missing, name);
        if (!end)
            break;
        p = end + 1;
    }
    if (!n_rec) {
        st = gb_error_set(GB_ERR_USAGE, "no bench of class %s (%s) has a ubench record at size=%s, cache=%s",
                          cls->name, cls->benches, size, cache);
        goto out;
    }
    out->n_benches = (int)n_cols;
    if (!n_cols) {
        gb_geo_finish(out);     /* nothing to rank: the comparisons say none */
        goto out;
    }
    if (!(out->shapes = calloc(cols[0].n, sizeof *out->shapes))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory aggregating class %s", cls->name);
        goto out;
    }
    for (size_t i = 0; i < cols[0].n; i++) {
        const struct gb_geo_entry *e0 = cols[0].e[i];
        double log_sum = 0, worst = 0, occ = INFINITY;
        int max_occ = 1, have_all = 1, occ_known = 1;
        for (size_t k = 0; k < n_cols && have_all; k++) {
            const struct gb_geo_entry *e = k ? gb_col_find(&cols[k], e0->rows, e0->cols) : e0;
            if (!e) {
                have_all = 0;
                break;
            }
            double ratio = e->time_ns / cols[k].best_ns;
            log_sum += log(ratio);
            if (ratio > worst)
                worst = ratio;
            if (isfinite(e->occupancy)) {
                if (e->occupancy < occ)
                    occ = e->occupancy;
            } else {
                occ_known = 0;
            }
            if (e->max_occ == 0)
                max_occ = 0;
            else if (e->max_occ < 0 && max_occ == 1)
                max_occ = -1;
        }
        if (!have_all) {
            out->n_dropped++;
            continue;
        }
        struct gb_geo_shape *sh = &out->shapes[out->n_shapes++];
        sh->rows = e0->rows;
        sh->cols = e0->cols;
        sh->time_ns = NAN;
        /* exp of the mean log: a score of 1 is every bench's best at once */
        sh->score = exp(log_sum / (double)n_cols);
        sh->worst_ratio = worst;
        sh->occupancy = occ_known ? occ : NAN;
        sh->max_occupancy = max_occ;
    }
    gb_geo_finish(out);
out:
    for (size_t k = 0; k < n_cols; k++)
        free(cols[k].e);
    free(cols);
    if (st != GB_OK)
        gb_geo_result_release(out);
    return st;
}

void gb_geo_result_release(struct gb_geo_result *r)
{
    if (!r)
        return;
    free(r->shapes);
    r->shapes = NULL;
    r->n_shapes = 0;
}

/* ---- queries ---- */

/* "a, b, c" of the set's benches (0), sizes (1) or caches (2). */
static void gb_geo_values(const struct gb_geo_set *s, int which, char *buf, size_t n)
{
    size_t k = which == 0 ? gb_geo_set_n_benches(s) : which == 1 ? gb_geo_set_n_sizes(s)
                                                                 : gb_geo_set_n_caches(s);
    buf[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        const char *v = which == 0 ? gb_geo_set_bench(s, i) : which == 1 ? gb_geo_set_size(s, i)
                                                                         : gb_geo_set_cache(s, i);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", i ? ", " : "", v);
    }
}

static enum gb_status gb_geo_check_bench(const struct gb_geo_set *s, const char *bench, const char *dir,
                                         int known_check)
{
    char avail[2048];
    if (gb_geo_set_n_records(s, bench, NULL, NULL))
        return GB_OK;
    gb_geo_values(s, 0, avail, sizeof avail);
    if (known_check && !gb_geo_known_bench(bench))
        return gb_error_set(GB_ERR_USAGE, "unknown bench '%s'; the benches of %s: %s", bench, dir, avail);
    return gb_error_set(GB_ERR_USAGE, "%s has no record of bench %s; its benches: %s", dir, bench, avail);
}

static enum gb_status gb_geo_check_class(const struct gb_geo_set *s, const struct gb_geo_class *c,
                                         const char *dir)
{
    char avail[2048];
    for (size_t i = 0; i < gb_geo_set_n_benches(s); i++)
        if (gb_geo_class_has(c, gb_geo_set_bench(s, i)))
            return GB_OK;
    gb_geo_values(s, 0, avail, sizeof avail);
    return gb_error_set(GB_ERR_USAGE, "%s has no bench of class %s (%s); it has %s", dir, c->name,
                        c->benches, avail);
}

enum gb_status gb_geo_query_check(const struct gb_geo_set *s, const struct gb_geo_query *q,
                                  const char *dir)
{
    struct gb_geo_counts counts;
    char avail[2048];
    enum gb_status st;
    gb_geo_set_counts(s, &counts);
    if (!counts.records)
        return gb_error_set(GB_ERR_USAGE, "%s has no record of the ubench suite (%zu records of other "
                            "suites); record one with 'gpubound run ubench'", dir, counts.other_suites);
    if (q->bench && (st = gb_geo_check_bench(s, q->bench, dir, 1)) != GB_OK)
        return st;
    if (q->size && !gb_geo_set_n_records(s, NULL, q->size, NULL)) {
        gb_geo_values(s, 1, avail, sizeof avail);
        return gb_error_set(GB_ERR_USAGE, "%s has no record at size %s; its sizes: %s", dir, q->size, avail);
    }
    if (q->cache && !gb_geo_set_n_records(s, NULL, NULL, q->cache)) {
        gb_geo_values(s, 2, avail, sizeof avail);
        return gb_error_set(GB_ERR_USAGE, "%s has no record at cache %s; its caches: %s", dir, q->cache,
                            avail);
    }
    for (int i = 0; i < 2 && q->compare[0]; i++)
        if ((st = gb_geo_check_bench(s, q->compare[i], dir, 0)) != GB_OK)
            return st;
    return q->cls && !q->compare[0] ? gb_geo_check_class(s, q->cls, dir) : GB_OK;
}

/* Whether the query has records at (bench b, size z, cache k). */
static int gb_geo_query_has(const struct gb_geo_set *s, const struct gb_geo_query *q, const char *b,
                            const char *z, const char *k)
{
    size_t n_rec = 0;
    if (!q->cls)
        return gb_geo_set_n_records(s, b, z, k) > 0;
    for (size_t i = 0; i < gb_geo_set_n_benches(s); i++)
        if (gb_geo_class_has(q->cls, gb_geo_set_bench(s, i)))
            n_rec += gb_geo_set_n_records(s, gb_geo_set_bench(s, i), z, k);
    return n_rec > 0;
}

/* Analyzes one group into the next slot of *v (grown as needed). */
static enum gb_status gb_geo_query_one(const struct gb_geo_set *s, const struct gb_geo_query *q,
                                       const char *b, const char *z, const char *k,
                                       struct gb_geo_result **v, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        struct gb_geo_result *nv = realloc(*v, c * sizeof *nv);
        if (!nv)
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        *v = nv;
        *cap = c;
    }
    struct gb_geo_result *r = &(*v)[*n];
    memset(r, 0, sizeof *r);
    enum gb_status st = q->cls ? gb_geo_analyze_class(s, q->cls, z, k, r)
                               : gb_geo_analyze_bench(s, b, z, k, r);
    if (st == GB_OK)
        (*n)++;
    return st;
}

enum gb_status gb_geo_query_none(const struct gb_geo_query *q, const char *dir)
{
    return gb_error_set(GB_ERR_USAGE, "%s has no record of %s%s%s%s%s", dir,
                        q->cls ? q->cls->name : q->bench ? q->bench : "ubench", q->size ? " at size " : "",
                        q->size ? q->size : "", q->cache ? " and cache " : "", q->cache ? q->cache : "");
}

enum gb_status gb_geo_query_run(const struct gb_geo_set *s, const struct gb_geo_query *q,
                                struct gb_geo_result **out, size_t *n_out)
{
    enum gb_status st = GB_OK;
    struct gb_geo_result *v = NULL;
    size_t n = 0, cap = 0;
    size_t nb = q->all ? gb_geo_set_n_benches(s) : 1;
    for (size_t bi = 0; bi < nb && st == GB_OK; bi++) {
        const char *b = q->all ? gb_geo_set_bench(s, bi) : q->bench;
        for (size_t zi = 0; zi < gb_geo_set_n_sizes(s) && st == GB_OK; zi++) {
            const char *z = gb_geo_set_size(s, zi);
            for (size_t ci = 0; ci < gb_geo_set_n_caches(s) && st == GB_OK; ci++) {
                const char *k = gb_geo_set_cache(s, ci);
                if ((q->size && strcmp(q->size, z) != 0) || (q->cache && strcmp(q->cache, k) != 0) ||
                    !gb_geo_query_has(s, q, b, z, k))
                    continue;
                st = gb_geo_query_one(s, q, b, z, k, &v, &n, &cap);
            }
        }
    }
    if (st != GB_OK) {
        for (size_t i = 0; i < n; i++)
            gb_geo_result_release(&v[i]);
        free(v);
        v = NULL;
        n = 0;
    }
    *out = v;
    *n_out = n;
    return st;
}
