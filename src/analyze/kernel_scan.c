/* kernel_scan.c - a kernel's loops, memory accesses and operations, read
 * from its libclang AST (gpubound/analyze.h). */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_internal.h"
#include "util/text.h"

#ifdef GB_HAVE_CLANG_C

#define GB_AN_MAX_DEPTH 16
#define GB_AN_MAX_CALLS 8  /* device functions followed inside one another */

struct tok {
    unsigned off;
    char *s;
};

/* A name of a followed function that stands for text in the kernel's names:
 * a parameter for its call's argument, a local for its initializer. */
struct sub {
    char name[64];
    char text[256];          /* "" when it stands for nothing fixed */
    CXCursor decl;
    CXCursor arg;            /* the argument (a parameter's), else a null cursor */
    int frame;               /* the call it belongs to (1 the first) */
};

/* A call being followed: what to restore when its function is walked. */
struct frame {
    CXCursor fn;             /* the definition followed */
    struct tok *toks;        /* the caller's tokens */
    unsigned n_toks;
    int depth;               /* the loop depth at the call */
    size_t sub_base;         /* its names start at subs[sub_base] */
};

struct scan {
    const struct gb_clang *cl;
    CXTranslationUnit tu;
    struct gb_kernel_analysis *a;
    const char *kernel;
    CXCursor fn;
    int found;
    struct tok *toks;
    unsigned n_toks;
    char loop_trips[GB_AN_MAX_DEPTH][300];
    int loop_decided[GB_AN_MAX_DEPTH];
    /* An unrolled `v = 0; v < B; v++` loop's v and B ("" otherwise). */
    char loop_var[GB_AN_MAX_DEPTH][64];
    char loop_bound[GB_AN_MAX_DEPTH][256];
    const char *const *defines;   /* the -D defines, "NAME=VALUE" */
    size_t n_defines;
    size_t n_macros;              /* the first n_macros local names are the source's macros */
    int depth;
    unsigned zero_dims;      /* the thread indices (bit 1 x, 2 y, 4 z) that the enclosing
                              * branches taken hold at 0 (`if (threadIdx.y == 0)`) */
    struct frame frames[GB_AN_MAX_CALLS];
    int n_frames;            /* calls being followed, 0 in the kernel's own body */
    struct sub *subs;
    size_t n_subs, cap_subs;
    enum gb_status st;
};

static enum gb_status scan_node(struct scan *s, CXCursor c);

static unsigned loc_off(const struct gb_clang *cl, CXSourceLocation l, unsigned *line)
{
    unsigned ln = 0, col = 0, off = 0;
    CXFile f;
    cl->getExpansionLocation(l, &f, &ln, &col, &off);
    if (line)
        *line = ln;
    return off;
}

static void cursor_span(const struct scan *s, CXCursor c, unsigned *b, unsigned *e, unsigned *line)
{
    CXSourceRange r = s->cl->getCursorExtent(c);
    *b = loc_off(s->cl, s->cl->getRangeStart(r), line);
    *e = loc_off(s->cl, s->cl->getRangeEnd(r), NULL);
}

/* Index of the first token at or after offset `off`. */
static unsigned tok_at(const struct scan *s, unsigned off)
{
    unsigned lo = 0, hi = s->n_toks;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (s->toks[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Tokens [i, j) joined as C text: a blank only between two words. */
static void tok_text(const struct scan *s, unsigned i, unsigned j, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned k = i; k < j && k < s->n_toks && len + 1 < n; k++) {
        const char *t = s->toks[k].s;
        if (len && gb_text_ident_char(buf[len - 1]) && gb_text_ident_char(t[0]))
            len += (size_t)snprintf(buf + len, n - len, " ");
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s", t);
    }
    if (len >= n)
        buf[n - 1] = '\0';
}

static void cursor_text(const struct scan *s, CXCursor c, char *buf, size_t n)
{
    unsigned b, e;
    cursor_span(s, c, &b, &e, NULL);
    tok_text(s, tok_at(s, b), tok_at(s, e), buf, n);
}

/* ---- names of followed functions ---- */

/* The name [w, w + n) of the function now followed, or NULL (in the
 * kernel's own body, or a name it does not declare). */
static const struct sub *sub_find(const struct scan *s, const char *w, size_t n)
{
    for (size_t i = s->n_subs; s->n_frames && i-- > 0;)
        if (s->subs[i].frame == s->n_frames && strlen(s->subs[i].name) == n &&
            !strncmp(s->subs[i].name, w, n))
            return &s->subs[i];
    return NULL;
}

/* Whether the word at p is a member name (after '.' or '->'). */
static int after_member(const char *start, const char *p)
{
    while (p > start && p[-1] == ' ')
        p--;
    return p > start && (p[-1] == '.' || (p[-1] == '>' && p - 1 > start && p[-2] == '-'));
}

/* `in` with the parameters and locals of the function now followed
 * replaced by what they stand for, in the kernel's names: -1 when one
 * stands for nothing fixed, or when out of room. */
static int subst(const struct scan *s, const char *in, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (const char *p = in; *p;) {
        size_t w = 0;
        while (gb_text_ident_char(p[w]))
            w++;
        const struct sub *x = w && !isdigit((unsigned char)*p) && !after_member(in, p)
                                  ? sub_find(s, p, w)
                                  : NULL;
        if (x && !x->text[0])
            return -1;
        int k = x ? snprintf(out + len, n - len, "%s", x->text)
                  : snprintf(out + len, n - len, "%.*s", (int)(w ? w : 1), p);
        if (k < 0 || (size_t)k >= n - len)
            return -1;
        len += (size_t)k;
        p += w ? w : 1;
    }
    return 0;
}

/* Adds a name of the followed function `frame` standing for `text`
 * (NULL: for nothing fixed), substituted in the names of the function now
 * walked, in parentheses unless it is one name or number. */
static enum gb_status add_sub(struct scan *s, int frame, const char *name, const char *text,
                              CXCursor decl, CXCursor arg)
{
    char t[256] = "";
    if (s->n_subs == s->cap_subs) {
        size_t cap = s->cap_subs ? 2 * s->cap_subs : 16;
        struct sub *ns = realloc(s->subs, cap * sizeof *ns);
        if (!ns)
            return s->st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        s->subs = ns;
        s->cap_subs = cap;
    }
    if (text && text[0] && subst(s, text, t, sizeof t) != 0)
        t[0] = '\0';
    struct sub *x = &s->subs[s->n_subs++];
    int plain = 1;
    for (const char *p = t; *p; p++)
        plain &= gb_text_ident_char(*p) || *p == '.';
    snprintf(x->name, sizeof x->name, "%s", name);
    snprintf(x->text, sizeof x->text, plain || strlen(t) + 3 > sizeof x->text ? "%s" : "(%s)", t);
    if (!plain && strlen(t) + 3 > sizeof x->text)
        x->text[0] = '\0';
    x->decl = decl;
    x->arg = arg;
    x->frame = frame;
    return GB_OK;
}

static void count_here(const struct scan *s, struct gb_kcount *k, unsigned line)
{
    size_t len = 0;
    k->line = (int)line;
    k->decided = 1;
    k->count[0] = '\0';
    for (int d = 0; d < s->depth; d++) {
        k->decided &= s->loop_decided[d];
        len += (size_t)snprintf(k->count + len, sizeof k->count - len, "%s(%s)", d ? " * " : "",
                                s->loop_decided[d] ? s->loop_trips[d] : "?");
        if (len >= sizeof k->count) {
            k->decided = 0;
            break;
        }
    }
    if (!s->depth)
        snprintf(k->count, sizeof k->count, "1");
}

static void note(struct scan *s, const char *fmt, const char *a, unsigned line)
{
    char buf[512];
    snprintf(buf, sizeof buf, fmt, line, a);
    for (size_t i = 0; i < s->a->n_notes; i++)
        if (strcmp(s->a->notes[i], buf) == 0)
            return;
    if (s->st == GB_OK)
        s->st = gb_an_strs_add(&s->a->notes, &s->a->n_notes, buf);
}

/* ---- children ---- */

struct kids {
    CXCursor c[4];
    int n;
};

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct kids *k = d;
    if (k->n < 4)
        k->c[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

static struct kids children(const struct scan *s, CXCursor c)
{
    struct kids k = {.n = 0};
    s->cl->visitChildren(c, kids_visit, &k);
    return k;
}

static enum CXChildVisitResult walk_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct scan *s = d;
    return scan_node(s, c) == GB_OK ? CXChildVisit_Continue : CXChildVisit_Break;
}

static enum gb_status walk_children(struct scan *s, CXCursor c)
{
    s->cl->visitChildren(c, walk_visit, s);
    return s->st;
}

/* ---- loops ---- */

/* The for statement's header split at its top-level ';'. */
static int for_header(const struct scan *s, CXCursor c, char parts[3][256], char *hdr, size_t hn)
{
    unsigned b, e, line;
    cursor_span(s, c, &b, &e, &line);
    unsigned i = tok_at(s, b), j = tok_at(s, e), open = i + 1, cut[2] = {0, 0};
    int depth = 0, n_cut = 0;
    unsigned close = 0;
    for (unsigned k = open; k < j && !close; k++) {
        const char *t = s->toks[k].s;
        if (!strcmp(t, "("))
            depth++;
        else if (!strcmp(t, ")") && --depth == 0)
            close = k;
        else if (!strcmp(t, ";") && depth == 1 && n_cut < 2)
            cut[n_cut++] = k;
    }
    if (!close || n_cut != 2)
        return -1;
    tok_text(s, open + 1, cut[0], parts[0], 256);
    tok_text(s, cut[0] + 1, cut[1], parts[1], 256);
    tok_text(s, cut[1] + 1, close, parts[2], 256);
    tok_text(s, i, close + 1, hdr, hn);
    return 0;
}

/* Whether `text` is a compile-time constant: numbers, operators, -D defines
 * and the source's macros only. */
static int constant_text(const struct scan *s, const char *text)
{
    for (const char *p = text; *p;) {
        if (!isalpha((unsigned char)*p) && *p != '_') {
            for (int num = isdigit((unsigned char)*p); *p && (num ? gb_text_ident_char(*p) : !gb_text_ident_char(*p));)
                p++;
            continue;
        }
        size_t n = 0, known = 0;
        while (gb_text_ident_char(p[n]))
            n++;
        for (size_t i = 0; i < s->n_defines && !known; i++)
            known = !strncmp(s->defines[i], p, n) && s->defines[i][n] == '=';
        for (size_t i = 0; i < s->n_macros && !known; i++)
            known = strlen(s->a->local_names[i]) == n && !strncmp(s->a->local_names[i], p, n);
        if (!known)
            return 0;
        p += n;
    }
    return 1;
}

/* Whether the statement starting at offset b follows a plain `#pragma unroll`. */
static int after_unroll(const struct scan *s, unsigned b)
{
    unsigned i = tok_at(s, b);
    return i >= 3 && !strcmp(s->toks[i - 1].s, "unroll") && !strcmp(s->toks[i - 2].s, "pragma") &&
           !strcmp(s->toks[i - 3].s, "#");
}

/* A for header's parts in the kernel's names (the parameters and locals
 * of a followed function replaced): -1 when one stands for nothing fixed. */
static int named_parts(const struct scan *s, char parts[3][256])
{
    char t[256];
    for (int i = 0; i < 3 && s->n_frames; i++) {
        if (subst(s, parts[i], t, sizeof t) != 0)
            return -1;
        memcpy(parts[i], t, sizeof t);
    }
    return 0;
}

/* Adds the loop; for a fully unrolled `v = 0; v < B; v++` over a constant
 * B, its v and B in var and bound (else ""). */
static enum gb_status add_loop(struct scan *s, CXCursor c, int is_for, char var[64],
                               char bound[256])
{
    struct gb_kernel_analysis *a = s->a;
    struct gb_kloop *nl = realloc(a->loops, (a->n_loops + 1) * sizeof *nl);
    unsigned b, e, line;
    char parts[3][256];
    var[0] = bound[0] = '\0';
    if (!nl)
        return s->st = gb_error_set(GB_ERR_NOMEM, "out of memory");
    a->loops = nl;
    struct gb_kloop *l = &nl[a->n_loops++];
    memset(l, 0, sizeof *l);
    cursor_span(s, c, &b, &e, &line);
    count_here(s, &l->at, line);
    l->depth = s->depth;
    if (!is_for) {
        tok_text(s, tok_at(s, b), tok_at(s, b) + 1, l->header, sizeof l->header);
        snprintf(l->why, sizeof l->why, "a %.20s loop has no counted header", l->header);
    } else if (for_header(s, c, parts, l->header, sizeof l->header) != 0) {
        snprintf(l->why, sizeof l->why, "the for header could not be read");
    } else if (named_parts(s, parts) != 0) {
        snprintf(l->why, sizeof l->why, "the header names a variable of a called function "
                 "that stands for no fixed value");
    } else {
        gb_an_loop_trips(parts[0], parts[1], parts[2], l->trips, sizeof l->trips, l->why,
                         sizeof l->why);
        l->unrolled = after_unroll(s, b) &&
                      gb_an_loop_unit(parts[0], parts[1], parts[2], var, 64, bound, 256) == 0 &&
                      constant_text(s, bound);
        if (!l->unrolled)
            var[0] = bound[0] = '\0';
    }
    return GB_OK;
}

static enum gb_status scan_loop(struct scan *s, CXCursor c, int is_for)
{
    char var[64], bound[256];
    if (add_loop(s, c, is_for, var, bound) != GB_OK)
        return s->st;
    if (s->depth >= GB_AN_MAX_DEPTH)
        return s->st = gb_error_set(GB_ERR_FORMAT, "loops nested deeper than %d", GB_AN_MAX_DEPTH);
    const struct gb_kloop *l = &s->a->loops[s->a->n_loops - 1];
    snprintf(s->loop_trips[s->depth], sizeof s->loop_trips[0], "%s", l->trips);
    s->loop_decided[s->depth] = l->trips[0] != '\0';
    snprintf(s->loop_var[s->depth], sizeof s->loop_var[0], "%s", var);
    snprintf(s->loop_bound[s->depth], sizeof s->loop_bound[0], "%s", bound);
    /* the names a followed function declares in the loop end with it */
    size_t n_subs = s->n_subs;
    s->depth++;
    walk_children(s, c);
    s->depth--;
    s->n_subs = n_subs;
    return s->st;
}

/* One more zeroed element at the end of the array *arr of *n elements of
 * `size` bytes, counted at the line of `c`: its gb_kcount is at offset
 * `at_off`. NULL (s->st set) when out of memory. */
static void *add_counted(struct scan *s, CXCursor c, void **arr, size_t *n, size_t size, size_t at_off)
{
    unsigned b, e, line;
    char *na = realloc(*arr, (*n + 1) * size);
    if (!na) {
        s->st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        return NULL;
    }
    *arr = na;
    char *x = na + (*n)++ * size;
    memset(x, 0, size);
    cursor_span(s, c, &b, &e, &line);
    count_here(s, (struct gb_kcount *)(x + at_off), line);
    return x;
}

/* ---- accesses ---- */

static CXCursor first_declref(const struct scan *s, CXCursor c, int depth)
{
    enum CXCursorKind k = s->cl->getCursorKind(c);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr || depth > 8)
        return c;
    struct kids kd = children(s, c);
    return kd.n ? first_declref(s, kd.c[0], depth + 1) : c;
}

static enum CXChildVisitResult shared_attr(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    const struct scan *s = ((void **)d)[0];
    if (s->cl->getCursorKind(c) == CXCursor_CUDASharedAttr)
        *(int *)((void **)d)[1] = 1;
    return CXChildVisit_Continue;
}

static enum gb_kspace base_space(struct scan *s, CXCursor base, char *name, size_t nn);

/* The space of the array a followed function's parameter points into:
 * that of its argument, read in the caller. */
static enum gb_kspace arg_space(struct scan *s, const struct sub *x, char *name, size_t nn)
{
    const struct frame *f = &s->frames[x->frame - 1];
    struct tok *toks = s->toks;
    unsigned n_toks = s->n_toks;
    int n_frames = s->n_frames;
    s->toks = f->toks;
    s->n_toks = f->n_toks;
    s->n_frames = x->frame - 1;
    enum gb_kspace sp = base_space(s, x->arg, name, nn);
    s->toks = toks;
    s->n_toks = n_toks;
    s->n_frames = n_frames;
    return sp;
}

/* The space of the array a subscript's base names, 0 when neither. */
static enum gb_kspace base_space(struct scan *s, CXCursor base, char *name, size_t nn)
{
    CXCursor ref = first_declref(s, base, 0);
    CXCursor decl = s->cl->getCursorReferenced(ref);
    CXString sp = s->cl->getCursorSpelling(decl);
    snprintf(name, nn, "%s", s->cl->getCString(sp));
    s->cl->disposeString(sp);
    enum CXCursorKind dk = s->cl->getCursorKind(decl);
    CXType t = s->cl->getCanonicalType(s->cl->getCursorType(decl));
    int shared = 0;
    void *d[2] = {s, &shared};
    if (dk == CXCursor_VarDecl)
        s->cl->visitChildren(decl, shared_attr, d);
    if (shared)
        return GB_KSPACE_SHARED;
    if (dk == CXCursor_ParmDecl && s->n_frames)
        for (size_t i = s->n_subs; i-- > 0;)
            if (s->subs[i].frame == s->n_frames && s->cl->equalCursors(s->subs[i].decl, decl) &&
                !s->cl->Cursor_isNull(s->subs[i].arg))
                return arg_space(s, &s->subs[i], name, nn);
    if (dk == CXCursor_ParmDecl && t.kind == CXType_Pointer)
        return GB_KSPACE_GLOBAL;
    if (dk == CXCursor_VarDecl && t.kind == CXType_Pointer) {
        char init[300];
        struct kids kd = children(s, decl);
        cursor_text(s, kd.n ? kd.c[kd.n - 1] : decl, init, sizeof init);
        unsigned line;
        cursor_span(s, decl, &line, &line, &line);
        (void)init;
        note(s, "line %u: %s is a local pointer; its accesses are counted as global memory",
             name, line);
        return GB_KSPACE_GLOBAL;
    }
    return 0;
}

/* The extent of the last dimension of the array declared at `decl`, as
 * written ("TILE" of `float As[TILE][TILE]`), into buf; "" when unknown. */
static void last_extent(const struct scan *s, CXCursor decl, char *buf, size_t n)
{
    char text[300];
    cursor_text(s, decl, text, sizeof text);
    char *close = strrchr(text, ']'), *open = close;
    buf[0] = '\0';
    while (open && open > text && *open != '[')
        open--;
    if (close && open && *open == '[' && strchr(open, '=') == NULL)
        snprintf(buf, n, "%.*s", (int)(close - open - 1), open + 1);
}

/* A shared access whose last subscript is the variable of an enclosing
 * unrolled loop (and the rest of it does not depend on that variable):
 * the loop's consecutive iterations take consecutive elements of a row,
 * and the compiler issues them as vector accesses (analyze.h). */
static void shared_vector(const struct scan *s, const struct kids *kd, struct gb_kaccess *x)
{
    char idx[160], base[160], row[160];
    if (kd->n < 2)
        return;
    cursor_text(s, kd->c[1], idx, sizeof idx);
    cursor_text(s, kd->c[0], base, sizeof base);
    for (int d = s->depth - 1; d >= 0; d--) {
        if (!s->loop_var[d][0] || strcmp(idx, s->loop_var[d]) != 0)
            continue;
        if (gb_text_has_word(base, s->loop_var[d]))
            return;
        CXCursor decl = s->cl->getCursorReferenced(first_declref(s, kd->c[0], 0));
        last_extent(s, decl, row, sizeof row);
        if (row[0] && constant_text(s, row))
            gb_an_vector_expr(row, s->loop_bound[d], x->elem_bytes, x->vector, sizeof x->vector);
        return;
    }
}

static enum gb_status add_access(struct scan *s, CXCursor c, const struct kids *kd,
                                 enum gb_kspace space, const char *name)
{
    unsigned b, e, line;
    struct gb_kaccess *x = add_counted(s, c, (void **)&s->a->acc, &s->a->n_acc, sizeof *x,
                                       offsetof(struct gb_kaccess, at));
    if (!x)
        return s->st;
    cursor_span(s, c, &b, &e, &line);
    x->space = space;
    snprintf(x->array, sizeof x->array, "%s", name);
    cursor_text(s, c, x->text, sizeof x->text);
    long long sz = s->cl->Type_getSizeOf(s->cl->getCursorType(c));
    x->elem_bytes = sz > 0 ? (int)sz : 4;
    unsigned nt = tok_at(s, e);
    /* data[i].x = v: the member is part of the access */
    while (nt + 2 < s->n_toks && !strcmp(s->toks[nt].s, "."))
        nt += 2;
    const char *next = nt < s->n_toks ? s->toks[nt].s : "";
    int compound = strlen(next) >= 2 && next[strlen(next) - 1] == '=' && strcmp(next, "==") &&
                   strcmp(next, "<=") && strcmp(next, ">=") && strcmp(next, "!=");
    x->stores = !strcmp(next, "=") || compound || !strcmp(next, "++") || !strcmp(next, "--");
    x->loads = strcmp(next, "=") != 0;
    if (space == GB_KSPACE_SHARED)
        shared_vector(s, kd, x);
    return GB_OK;
}

static enum gb_status scan_subscript(struct scan *s, CXCursor c)
{
    struct kids kd = children(s, c);
    char name[64];
    enum gb_kspace space = kd.n ? base_space(s, kd.c[0], name, sizeof name) : 0;
    if (space && add_access(s, c, &kd, space, name) != GB_OK)
        return s->st;
    /* The index may hold accesses too (a[b[i]]); the base is walked for
     * nested subscripts of arrays of arrays. */
    for (int i = 1; i < kd.n && i < 4 && s->st == GB_OK; i++)
        scan_node(s, kd.c[i]);
    if (kd.n && s->cl->getCursorKind(kd.c[0]) != CXCursor_DeclRefExpr && s->st == GB_OK) {
        struct kids inner = children(s, kd.c[0]);
        if (inner.n && s->cl->getCursorKind(inner.c[0]) == CXCursor_ArraySubscriptExpr)
            return s->st; /* a[i][j]: one access, counted at the outer subscript */
        walk_children(s, kd.c[0]);
    }
    return s->st;
}

/* ---- operations ---- */

static int is_float(const struct scan *s, CXCursor c)
{
    CXType t = s->cl->getCanonicalType(s->cl->getCursorType(c));
    return t.kind == CXType_Float || t.kind == CXType_Double || t.kind == CXType_Half ||
           t.kind == CXType_Float16;
}

static enum gb_status add_op(struct scan *s, CXCursor c, const char *text, int n)
{
    struct gb_kop *o = add_counted(s, c, (void **)&s->a->ops, &s->a->n_ops, sizeof *o,
                                   offsetof(struct gb_kop, at));
    if (!o)
        return s->st;
    o->n = n;
    snprintf(o->text, sizeof o->text, "%.63s", text);
    return GB_OK;
}

static enum gb_status add_atomic(struct scan *s, CXCursor c, const char *text)
{
    struct gb_katomic *x = add_counted(s, c, (void **)&s->a->atomics, &s->a->n_atomics, sizeof *x,
                                       offsetof(struct gb_katomic, at));
    if (!x)
        return s->st;
    x->zero_dims = s->zero_dims;
    snprintf(x->text, sizeof x->text, "%.63s", text);
    return GB_OK;
}

static enum gb_status add_barrier(struct scan *s, CXCursor c, const char *text)
{
    struct gb_kbarrier *x = add_counted(s, c, (void **)&s->a->barriers, &s->a->n_barriers,
                                        sizeof *x, offsetof(struct gb_kbarrier, at));
    if (!x)
        return s->st;
    snprintf(x->text, sizeof x->text, "%.63s", text);
    return GB_OK;
}

/* Whether `name` is a block-wide barrier: __syncthreads and its counting
 * forms (__syncthreads_count, _and, _or). */
static int is_barrier(const char *name)
{
    return !strcmp(name, "__syncthreads") || !strcmp(name, "__syncthreads_count") ||
           !strcmp(name, "__syncthreads_and") || !strcmp(name, "__syncthreads_or");
}

/* Whether `t` (spaces and parentheses removed) tests one index of the
 * thread for 0: `threadIdx.D==0`, `0==threadIdx.D` or `!threadIdx.D`, D
 * one of x, y, z; the bit of D (1, 2, 4), else 0. */
static int zero_index_test(const char *t, size_t n)
{
    static const char *const form[] = {"threadIdx.%c==0", "0==threadIdx.%c", "!threadIdx.%c"};
    for (int d = 0; d < 3; d++)
        for (size_t f = 0; f < sizeof form / sizeof form[0]; f++) {
            char want[24];
            int w = snprintf(want, sizeof want, form[f], "xyz"[d]);
            if ((size_t)w == n && !strncmp(t, want, n))
                return 1 << d;
        }
    return 0;
}

/* The thread indices a branch condition holds at 0 (bit 1 x, 2 y, 4 z):
 * its conjuncts joined by && that test one index for 0 (`threadIdx.y ==
 * 0`, `0 == threadIdx.x`, `!threadIdx.z`), spaces and parentheses ignored;
 * its other conjuncts (`c < ncols`) are taken as true, as every branch the
 * analysis cannot decide is. 0 when no conjunct tests an index for 0, or
 * when the condition has a || (it could hold with the index nonzero). */
static unsigned zero_dims_cond(const char *text)
{
    char t[160];
    size_t k = 0;
    for (const char *p = text; *p && k + 1 < sizeof t; p++)
        if (*p != ' ' && *p != '\t' && *p != '(' && *p != ')')
            t[k++] = *p;
    t[k] = '\0';
    if (strstr(t, "||"))
        return 0;
    unsigned seen = 0;
    for (const char *p = t;;) {
        const char *and = strstr(p, "&&");
        size_t n = and ? (size_t)(and - p) : strlen(p);
        seen |= (unsigned)zero_index_test(p, n);
        if (!and)
            return seen;
        p = and + 2;
    }
}

/* "threadIdx.x == 0 && threadIdx.y == 0" for the dims of `mask`. */
static void zero_dims_text(unsigned mask, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int d = 0; d < 3 && len < n; d++)
        if (mask >> d & 1)
            len += (size_t)snprintf(buf + len, n - len, "%sthreadIdx.%c == 0", len ? " && " : "", "xyz"[d]);
}

static enum gb_status scan_binop(struct scan *s, CXCursor c)
{
    struct kids kd = children(s, c);
    if (kd.n == 2) {
        unsigned b, e;
        cursor_span(s, kd.c[0], &b, &e, NULL);
        unsigned i = tok_at(s, e);
        const char *op = i < s->n_toks ? s->toks[i].s : "";
        int arith = !strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "/") ||
                    !strcmp(op, "+=") || !strcmp(op, "-=") || !strcmp(op, "*=") ||
                    !strcmp(op, "/=");
        if (arith && (is_float(s, c) || is_float(s, kd.c[0])) && add_op(s, c, op, 1) != GB_OK)
            return s->st;
    }
    return walk_children(s, c);
}

/* ---- calls of the source's own functions ---- */

static CXCursor fn_body(const struct scan *s, CXCursor fn);
static enum gb_status load_tokens(struct scan *s, CXCursor c);
static void free_tokens(struct scan *s);

static int is_invalid(const struct scan *s, CXCursor c)
{
    enum CXCursorKind k = s->cl->getCursorKind(c);
    return k >= CXCursor_FirstInvalid && k <= CXCursor_LastInvalid;
}

/* Whether `body` is a body written in the source: an implicit member (a
 * struct's copy assignment) has one made by the compiler, not to be read. */
static int written_body(const struct scan *s, CXCursor body)
{
    CXToken *t = NULL;
    unsigned n = 0;
    int written = 0;
    if (s->cl->getCursorKind(body) != CXCursor_CompoundStmt)
        return 0;
    s->cl->tokenize(s->tu, s->cl->getCursorExtent(body), &t, &n);
    if (n) {
        CXString sp = s->cl->getTokenSpelling(s->tu, t[0]);
        written = !strcmp(s->cl->getCString(sp), "{");
        s->cl->disposeString(sp);
    }
    s->cl->disposeTokens(s->tu, t, n);
    return written;
}

/* The definition of the function a call calls, when it is followed; else
 * a null cursor, with the note to give in *why. */
static CXCursor callee_def(const struct scan *s, CXCursor call, const char **why)
{
    CXCursor ref = s->cl->getCursorReferenced(call), def = s->cl->getNullCursor();
    enum CXCursorKind k = s->cl->getCursorKind(ref);
    *why = "line %u: the call of %s is not followed (its accesses and operations are not counted)";
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate && k != CXCursor_CXXMethod)
        return def;
    CXCursor d = s->cl->getCursorDefinition(ref);
    /* a template's specialization: the template's own definition */
    if (is_invalid(s, d))
        d = s->cl->getCursorDefinition(s->cl->getSpecializedCursorTemplate(ref));
    if (is_invalid(s, d) || !written_body(s, fn_body(s, d)))
        return def;
    int on_stack = s->cl->equalCursors(d, s->fn);
    for (int i = 0; i < s->n_frames; i++)
        on_stack |= s->cl->equalCursors(d, s->frames[i].fn);
    if (on_stack) {
        *why = "line %u: the recursive call of %s is not followed (its accesses and operations "
               "are counted once, for the call that is)";
        return def;
    }
    if (s->n_frames >= GB_AN_MAX_CALLS) {
        *why = "line %u: the call of %s is not followed (calls nested more than 8 deep; its "
               "accesses and operations are not counted)";
        return def;
    }
    return d;
}

struct params {
    CXCursor c[64];
    int n;
};

static enum CXChildVisitResult param_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct params *p = ((void **)d)[0];
    const struct scan *s = ((void **)d)[1];
    if (s->cl->getCursorKind(c) == CXCursor_ParmDecl && p->n < 64)
        p->c[p->n++] = c;
    return CXChildVisit_Continue;
}

/* The parameters of `def`, each standing for its argument in `call`,
 * read in the caller's names (a parameter without one for nothing). */
static enum gb_status bind_params(struct scan *s, CXCursor call, CXCursor def)
{
    struct params p = {.n = 0};
    void *d[2] = {&p, s};
    int n_args = s->cl->Cursor_getNumArguments(call);
    char name[128], text[256];
    s->cl->visitChildren(def, param_visit, d);
    for (int i = 0; i < p.n && s->st == GB_OK; i++) {
        CXCursor arg = i < n_args ? s->cl->Cursor_getArgument(call, (unsigned)i)
                                  : s->cl->getNullCursor();
        CXString sp = s->cl->getCursorSpelling(p.c[i]);
        snprintf(name, sizeof name, "%s", s->cl->getCString(sp));
        s->cl->disposeString(sp);
        text[0] = '\0';
        if (!s->cl->Cursor_isNull(arg))
            cursor_text(s, arg, text, sizeof text);
        add_sub(s, s->n_frames + 1, name, text, p.c[i], arg);
    }
    return s->st;
}

/* Walks the body of `def` where `call` is, inside the loops around it. */
static enum gb_status follow_call(struct scan *s, CXCursor call, CXCursor def)
{
    struct frame *f = &s->frames[s->n_frames];
    size_t base = s->n_subs;
    if (bind_params(s, call, def) != GB_OK)
        return s->st;
    f->fn = def;
    f->toks = s->toks;
    f->n_toks = s->n_toks;
    f->depth = s->depth;
    f->sub_base = base;
    s->toks = NULL;
    s->n_toks = 0;
    s->n_frames++;
    CXCursor body = fn_body(s, def);
    if ((s->st = load_tokens(s, body)) == GB_OK)
        walk_children(s, body);
    free_tokens(s);
    s->n_frames--;
    s->toks = f->toks;
    s->n_toks = f->n_toks;
    s->n_subs = base;
    return s->st;
}

/* A call of a function the analysis does not know by name: its arguments,
 * then its body when the source defines it (callee_def). */
static enum gb_status scan_other_call(struct scan *s, CXCursor c, const char *name, unsigned line)
{
    const char *why;
    CXCursor def = callee_def(s, c, &why);
    if (walk_children(s, c) != GB_OK)
        return s->st;
    if (s->cl->Cursor_isNull(def)) {
        note(s, why, name, line);
        return s->st;
    }
    return follow_call(s, c, def);
}

static enum gb_status scan_call(struct scan *s, CXCursor c)
{
    static const char *const one[] = {"sinf", "cosf", "__sinf", "__cosf", "expf", "__expf",
                                      "logf", "__logf", "sqrtf", "rsqrtf", "__fdividef", "sin",
                                      "cos", "sqrt", "exp", "fminf", "fmaxf"};
    static const char *const two[] = {"fmaf", "__fmaf_rn", "fma", "sincosf", "__sincosf",
                                      "sincospif"};
    static const char *const ignore[] = {"__syncthreads", "__syncwarp", "__threadfence",
                                         "make_float2", "make_float4", "make_double2", "min",
                                         "max", "__shfl_down_sync", "__shfl_xor_sync",
                                         "__shfl_sync", "fabsf"};
    CXString sp = s->cl->getCursorSpelling(c);
    char name[128];
    unsigned b, e, line;
    snprintf(name, sizeof name, "%s", s->cl->getCString(sp));
    s->cl->disposeString(sp);
    int n = 0, known = 0;
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
        if (!strcmp(name, one[i]))
            n = 1;
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
        if (!strcmp(name, two[i]))
            n = 2;
    for (size_t i = 0; i < sizeof ignore / sizeof ignore[0]; i++)
        known |= !strcmp(name, ignore[i]);
    if (n && add_op(s, c, name, n) != GB_OK)
        return s->st;
    if (!strncmp(name, "atomic", 6)) {
        if (add_atomic(s, c, name) != GB_OK)
            return s->st;
        known = 1;
    }
    if (is_barrier(name)) {
        if (add_barrier(s, c, name) != GB_OK)
            return s->st;
        known = 1;
    }
    cursor_span(s, c, &b, &e, &line);
    if (!n && !known && name[0])
        return scan_other_call(s, c, name, line);
    return walk_children(s, c);
}

/* ---- statements ---- */

static enum gb_status scan_local(struct scan *s, CXCursor c)
{
    CXString sp = s->cl->getCursorSpelling(c);
    char name[128], init[512];
    struct kids kd = children(s, c);
    snprintf(name, sizeof name, "%s", s->cl->getCString(sp));
    s->cl->disposeString(sp);
    enum CXTypeKind tk = s->cl->getCanonicalType(s->cl->getCursorType(c)).kind;
    int has_init = 0;
    if (kd.n >= 1 && tk != CXType_ConstantArray && tk != CXType_IncompleteArray) {
        CXCursor last = kd.c[kd.n < 4 ? kd.n - 1 : 3];
        has_init = s->cl->isExpression(s->cl->getCursorKind(last));
        if (has_init)
            cursor_text(s, last, init, sizeof init);
    }
    if (s->n_frames) {
        /* A local of a followed function stands for its initializer where
         * that is fixed (outside the function's own loops), else for
         * nothing: its names are never read as the kernel's. */
        int fixed = has_init && s->depth == s->frames[s->n_frames - 1].depth;
        if (add_sub(s, s->n_frames, name, fixed ? init : NULL, c, s->cl->getNullCursor()) != GB_OK)
            return s->st;
    } else if (has_init && s->depth == 0) {
        size_t n_inits = s->a->n_locals;
        if (gb_an_strs_add(&s->a->local_inits, &n_inits, init) != GB_OK ||
            gb_an_strs_add(&s->a->local_names, &s->a->n_locals, name) != GB_OK)
            return s->st = GB_ERR_NOMEM;
    }
    return walk_children(s, c);
}

static enum gb_status scan_node(struct scan *s, CXCursor c)
{
    unsigned b, e, line;
    char text[160];
    switch (s->cl->getCursorKind(c)) {
    case CXCursor_ForStmt: return scan_loop(s, c, 1);
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt: return scan_loop(s, c, 0);
    case CXCursor_ArraySubscriptExpr: return scan_subscript(s, c);
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: return scan_binop(s, c);
    case CXCursor_CallExpr: return scan_call(s, c);
    case CXCursor_VarDecl: return scan_local(s, c);
    case CXCursor_ParmDecl: {
        CXString sp = s->cl->getCursorSpelling(c);
        if (s->depth == 0)
            s->st = gb_an_strs_add(&s->a->params, &s->a->n_params, s->cl->getCString(sp));
        s->cl->disposeString(sp);
        return s->st;
    }
    case CXCursor_IfStmt:
    case CXCursor_ConditionalOperator: {
        struct kids kd = children(s, c);
        cursor_span(s, c, &b, &e, &line);
        if (kd.n)
            cursor_text(s, kd.c[0], text, sizeof text);
        unsigned zd = kd.n ? zero_dims_cond(text) : 0;
        if (zd) {
            char held[96], what[400];
            zero_dims_text(zd | s->zero_dims, held, sizeof held);
            snprintf(what, sizeof what, "the branch on '%s' is counted as taken by the threads with %s (its "
                     "atomics once per block times the block's other dimensions)", text, held);
            note(s, "line %u: %s", what, line);
            /* The condition and the branch taken; an else runs on the others. */
            unsigned outer = s->zero_dims;
            for (int i = 0; i < (kd.n < 4 ? kd.n : 4) && s->st == GB_OK; i++) {
                s->zero_dims = i == 1 ? outer | zd : outer;
                scan_node(s, kd.c[i]);
            }
            s->zero_dims = outer;
            return s->st;
        }
        note(s, "line %u: the branch on '%s' is counted as taken by every thread",
             kd.n ? text : "?", line);
        return walk_children(s, c);
    }
    default: return walk_children(s, c);
    }
}

/* ---- the translation unit ---- */

static enum gb_status load_tokens(struct scan *s, CXCursor c)
{
    CXToken *t = NULL;
    unsigned n = 0;
    s->cl->tokenize(s->tu, s->cl->getCursorExtent(c), &t, &n);
    if (n && !(s->toks = calloc(n, sizeof *s->toks))) {
        s->cl->disposeTokens(s->tu, t, n);
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    }
    for (unsigned i = 0; i < n; i++) {
        CXString sp = s->cl->getTokenSpelling(s->tu, t[i]);
        s->toks[i].off = loc_off(s->cl, s->cl->getTokenLocation(s->tu, t[i]), NULL);
        s->toks[i].s = strdup(s->cl->getCString(sp));
        s->cl->disposeString(sp);
        s->n_toks = i + 1;
        if (!s->toks[i].s) {
            s->cl->disposeTokens(s->tu, t, n);
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        }
    }
    s->cl->disposeTokens(s->tu, t, n);
    return GB_OK;
}

static void free_tokens(struct scan *s)
{
    for (unsigned i = 0; i < s->n_toks; i++)
        free(s->toks[i].s);
    free(s->toks);
    s->toks = NULL;
    s->n_toks = 0;
}

/* An object-like macro of the main file: its name and body become a local
 * name the count expressions may use. */
static void add_macro(struct scan *s, CXCursor c)
{
    char body[512];
    if (!s->cl->Location_isFromMainFile(s->cl->getRangeStart(s->cl->getCursorExtent(c))) ||
        load_tokens(s, c) != GB_OK || s->n_toks < 2) {
        free_tokens(s);
        return;
    }
    const struct tok *t = s->toks;
    int fnlike = !strcmp(t[1].s, "(") && t[1].off == t[0].off + strlen(t[0].s);
    if (!fnlike) {
        size_t n_inits = s->a->n_locals;
        tok_text(s, 1, s->n_toks, body, sizeof body);
        if (gb_an_strs_add(&s->a->local_inits, &n_inits, body) == GB_OK)
            gb_an_strs_add(&s->a->local_names, &s->a->n_locals, t[0].s);
    }
    free_tokens(s);
}

static enum CXChildVisitResult find_fn(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct scan *s = d;
    enum CXCursorKind k = s->cl->getCursorKind(c);
    if (k == CXCursor_MacroDefinition) {
        add_macro(s, c);
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_LinkageSpec || k == CXCursor_Namespace || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    if ((k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) ||
        !s->cl->isCursorDefinition(c))
        return CXChildVisit_Continue;
    CXString sp = s->cl->getCursorSpelling(c);
    int match = strcmp(s->cl->getCString(sp), s->kernel) == 0;
    s->cl->disposeString(sp);
    if (match && !s->found) {
        s->fn = c;
        s->found = 1;
    }
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult last_child(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    *(CXCursor *)d = c;
    return CXChildVisit_Continue;
}

/* The body of a function definition, the range whose tokens the scan
 * reads: the declaration starts in a macro of the built-in header
 * (__global__, __device__), a range libclang does not tokenize. */
static CXCursor fn_body(const struct scan *s, CXCursor fn)
{
    struct kids kd = children(s, fn);
    CXCursor body = kd.n ? kd.c[kd.n < 4 ? kd.n - 1 : 3] : fn;
    if (kd.n > 4)
        s->cl->visitChildren(fn, last_child, &body);
    return body;
}

static enum gb_status parse_notes(struct scan *s)
{
    unsigned n = s->cl->getNumDiagnostics(s->tu), kept = 0;
    for (unsigned i = 0; i < n && kept < 3 && s->st == GB_OK; i++) {
        CXDiagnostic d = s->cl->getDiagnostic(s->tu, i);
        if (s->cl->getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString f = s->cl->formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation);
            char buf[600];
            snprintf(buf, sizeof buf, "parse error (the counts may be incomplete): %s",
                     s->cl->getCString(f));
            s->cl->disposeString(f);
            s->st = gb_an_strs_add(&s->a->notes, &s->a->n_notes, buf);
            kept++;
        }
        s->cl->disposeDiagnostic(d);
    }
    return s->st;
}

#define GB_AN_MAX_ARGS 80

static enum gb_status parse_tu(struct scan *s, CXIndex idx, const char *source,
                               const char *include_dir, const char *const *defines,
                               size_t n_defines)
{
    const char *argv[GB_AN_MAX_ARGS];
    char *owned[GB_AN_MAX_ARGS];
    int argc = 0, n_owned = 0;
    static const char *const fixed[] = {"-x", "cuda", "--cuda-device-only", "-nocudainc",
                                        "-nocudalib", "--cuda-gpu-arch=sm_70", "-std=c++14",
                                        "-include", "/gpubound-virtual/gb_cuda_builtins.h", "-w"};
    struct CXUnsavedFile hdr = {"/gpubound-virtual/gb_cuda_builtins.h", gb_an_cuda_header,
                                (unsigned long)strlen(gb_an_cuda_header)};
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        argv[argc++] = fixed[i];
    if (include_dir && n_owned < GB_AN_MAX_ARGS - 1 &&
        asprintf(&owned[n_owned], "-I%s", include_dir) >= 0)
        argv[argc++] = owned[n_owned++];
    for (size_t i = 0; i < n_defines && argc < GB_AN_MAX_ARGS; i++)
        if (asprintf(&owned[n_owned], "-D%s", defines[i]) >= 0)
            argv[argc++] = owned[n_owned++];
    enum CXErrorCode ec = s->cl->parseTranslationUnit2(
        idx, source, argv, argc, &hdr, 1,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_Incomplete, &s->tu);
    if (ec != CXError_Success || !s->tu)
        st = gb_error_set(GB_ERR_FORMAT, "libclang could not parse %s (error %d)", source, (int)ec);
    for (int i = 0; i < n_owned; i++)
        free(owned[i]);
    return st;
}

enum gb_status gb_analysis_run(const char *source, const char *include_dir,
                               const char *const *defines, size_t n_defines, const char *kernel,
                               struct gb_kernel_analysis *out)
{
    struct scan s = {0};
    char name[128];
    CXIndex idx = NULL;
    memset(out, 0, sizeof *out);
    if (!(s.cl = gb_clang_open(NULL)))
        return GB_ERR_UNSUPPORTED;
    snprintf(name, sizeof name, "%.*s", (int)strcspn(kernel, "<"), kernel);
    snprintf(out->kernel, sizeof out->kernel, "%s", name);
    snprintf(out->file, sizeof out->file, "%s", source);
    s.a = out;
    s.kernel = name;
    s.defines = defines;
    s.n_defines = n_defines;
    idx = s.cl->createIndex(0, 0);
    if ((s.st = parse_tu(&s, idx, source, include_dir, defines, n_defines)) != GB_OK)
        goto out;
    s.cl->visitChildren(s.cl->getTranslationUnitCursor(s.tu), find_fn, &s);
    if (!s.found) {
        s.st = gb_error_set(GB_ERR_FORMAT, "%s defines no function named %s", source, name);
        goto out;
    }
    if (parse_notes(&s) != GB_OK || (s.st = load_tokens(&s, fn_body(&s, s.fn))) != GB_OK)
        goto out;
    s.n_macros = out->n_locals;
    walk_children(&s, s.fn);
out:
    free_tokens(&s);
    free(s.subs);
    if (s.tu)
        s.cl->disposeTranslationUnit(s.tu);
    if (idx)
        s.cl->disposeIndex(idx);
    if (s.st != GB_OK)
        gb_analysis_release(out);
    return s.st;
}

#else

enum gb_status gb_analysis_run(const char *source, const char *include_dir,
                               const char *const *defines, size_t n_defines, const char *kernel,
                               struct gb_kernel_analysis *out)
{
    (void)source, (void)include_dir, (void)defines, (void)n_defines, (void)kernel;
    memset(out, 0, sizeof *out);
    return gb_error_set(GB_ERR_UNSUPPORTED, "this gpubound was built without libclang's headers "
                        "(install libclang-dev and rebuild) and cannot analyse kernel source");
}

#endif /* GB_HAVE_CLANG_C */

void gb_analysis_release(struct gb_kernel_analysis *a)
{
    if (!a)
        return;
    free(a->loops);
    free(a->acc);
    free(a->ops);
    free(a->atomics);
    free(a->barriers);
    for (size_t i = 0; i < a->n_notes; i++)
        free(a->notes[i]);
    free(a->notes);
    for (size_t i = 0; i < a->n_params; i++)
        free(a->params[i]);
    free(a->params);
    for (size_t i = 0; i < a->n_locals; i++) {
        free(a->local_names[i]);
        free(a->local_inits[i]);
    }
    free(a->local_names);
    free(a->local_inits);
    memset(a, 0, sizeof *a);
}
