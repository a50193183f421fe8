/* spec_expr.c - the expressions of kernel spec files.
 *
 * Arithmetic is GNU libmatheval's (a maintained parser and evaluator:
 * + - * / ^, parentheses, sqrt, log, exp, abs, ...). libmatheval has no
 * ceil, floor, min or max, no comparisons and no logical operators, and a
 * spec needs all of them (grids are ceil(n / block), restrictions are
 * comparisons joined by && and ||). This thin layer finds them in the text
 * and builds a small tree: && and || and comparisons at the top of an
 * expression or of a parenthesised group, and calls of ceil/floor/min/max,
 * become nodes of their own; what is left between them is handed to
 * libmatheval, with a placeholder variable (gbq__N) standing for each node
 * found inside it. Evaluating a node evaluates its children first. A
 * chain of && (or ||) is one node with a child per operand.
 *
 * Every level of parentheses scans its own text a bounded number of times,
 * so with the nesting capped (GB_EXPR_MAX_DEPTH) and the length capped
 * (GB_EXPR_MAX_LEN) parsing is linear in the text and the recursion of the
 * parse and of the evaluation stays shallow.
 *
 * libmatheval's scanner echoes characters it does not know to stdout, and
 * its parser and symbol tables are shared state: only characters of its
 * grammar reach it, and every call into it holds one lock.
 */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <matheval.h>

#include "gpubound/spec.h"

/* libmatheval's static archive (Debian) leaves its scanner's yywrap to the
 * flex library, which is not installed; one input string is all it reads. */
int yywrap(void);
int yywrap(void)
{
    return 1;
}

static pthread_mutex_t gb_expr_lock = PTHREAD_MUTEX_INITIALIZER;

enum gb_expr_op {
    GB_EX_ARITH = 0, /* libmatheval text over names and children */
    GB_EX_CEIL, GB_EX_FLOOR, GB_EX_MIN, GB_EX_MAX,
    GB_EX_LT, GB_EX_LE, GB_EX_GT, GB_EX_GE, GB_EX_EQ, GB_EX_NE,
    GB_EX_AND, GB_EX_OR,
};

struct gb_expr {
    char *text;
    enum gb_expr_op op;
    struct gb_expr **kids;
    int n_kids;
    /* GB_EX_ARITH: the evaluator and, per variable it names, the index of
     * the name (>= 0) or of the child it stands for (-1 - k). */
    void *ev;
    char **var_names;            /* libmatheval's array */
    int n_vars;
    int *var_ref;
};

#define GB_EX_PLACEHOLDER "gbq__"

/* libmatheval's functions (the first GB_EX_N_FUNCS of the reserved names). */
#define GB_EX_N_FUNCS 32
static const char *const gb_expr_reserved_names[] = {
    "exp", "log", "sqrt", "sin", "cos", "tan", "cot", "sec", "csc", "asin", "acos", "atan", "acot",
    "asec", "acsc", "sinh", "cosh", "tanh", "coth", "sech", "csch", "asinh", "acosh", "atanh",
    "acoth", "asech", "acsch", "abs", "step", "delta", "nandelta", "erf",
    "e", "log2e", "log10e", "ln2", "ln10", "pi", "pi_2", "pi_4", "1_pi", "2_pi", "2_sqrtpi",
    "sqrt2", "sqrt1_2", "ceil", "floor", "min", "max"};

int gb_expr_reserved(const char *name)
{
    for (size_t i = 0; i < sizeof gb_expr_reserved_names / sizeof gb_expr_reserved_names[0]; i++)
        if (strcmp(name, gb_expr_reserved_names[i]) == 0)
            return 1;
    return strncmp(name, GB_EX_PLACEHOLDER, strlen(GB_EX_PLACEHOLDER)) == 0;
}

void gb_expr_free(struct gb_expr *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->n_kids; i++)
        gb_expr_free(e->kids[i]);
    free(e->kids);
    if (e->ev) {
        pthread_mutex_lock(&gb_expr_lock);
        evaluator_destroy(e->ev);
        pthread_mutex_unlock(&gb_expr_lock);
    }
    free(e->var_ref);
    free(e->text);
    free(e);
}

const char *gb_expr_text(const struct gb_expr *e)
{
    return e->text;
}

int gb_expr_size(const struct gb_expr *e)
{
    int n = 1;
    for (int k = 0; k < e->n_kids; k++)
        n += gb_expr_size(e->kids[k]);
    return n;
}

int gb_expr_uses(const struct gb_expr *e, int i)
{
    for (int k = 0; k < e->n_vars; k++)
        if (e->var_ref[k] == i)
            return 1;
    for (int k = 0; k < e->n_kids; k++)
        if (gb_expr_uses(e->kids[k], i))
            return 1;
    return 0;
}

/* ---- scanning ---- */

/* The index of the ')' matching the '(' at s[open], or -1. */
static long gb_match_paren(const char *s, size_t len, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < len; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            return (long)i;
    }
    return -1;
}

/* The first operator of `ops` (longest first) at depth 0 of s[0..len), its
 * position in *at and its index in *which; 0 when none. */
static int gb_find_top(const char *s, size_t len, const char *const *ops, int n_ops, size_t *at, int *which)
{
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')')
            depth--;
        if (depth != 0)
            continue;
        for (int k = 0; k < n_ops; k++) {
            size_t ol = strlen(ops[k]);
            if (i + ol <= len && strncmp(s + i, ops[k], ol) == 0) {
                *at = i;
                *which = k;
                return 1;
            }
        }
    }
    return 0;
}

static const char *const gb_cmp_ops[] = {"<=", ">=", "==", "!=", "<", ">"};
static const enum gb_expr_op gb_cmp_codes[] = {GB_EX_LE, GB_EX_GE, GB_EX_EQ, GB_EX_NE, GB_EX_LT, GB_EX_GT};

static int gb_has_top_logic(const char *s, size_t len)
{
    static const char *const ops[] = {"||", "&&", "<", ">", "==", "!="};
    size_t at;
    int which;
    return gb_find_top(s, len, ops, 6, &at, &which);
}

static enum gb_status gb_parse(const char *s, size_t len, const char *const *names, int n_names,
                               struct gb_expr **out);

static struct gb_expr *gb_node(enum gb_expr_op op, const char *s, size_t len)
{
    struct gb_expr *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->op = op;
    if (!(e->text = strndup(s, len))) {
        free(e);
        return NULL;
    }
    return e;
}

static enum gb_status gb_add_kid(struct gb_expr *e, struct gb_expr *kid)
{
    struct gb_expr **k = realloc(e->kids, (size_t)(e->n_kids + 1) * sizeof *k);
    if (!k) {
        gb_expr_free(kid);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    e->kids = k;
    e->kids[e->n_kids++] = kid;
    return GB_OK;
}

/* A binary node: `op` splitting s at [at, at+oplen). */
static enum gb_status gb_parse_binary(const char *s, size_t len, size_t at, size_t oplen, enum gb_expr_op op,
                                      const char *const *names, int n_names, struct gb_expr **out)
{
    enum gb_status st;
    struct gb_expr *e = gb_node(op, s, len), *kid = NULL;
    if (!e)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if ((st = gb_parse(s, at, names, n_names, &kid)) != GB_OK || (st = gb_add_kid(e, kid)) != GB_OK ||
        (st = gb_parse(s + at + oplen, len - at - oplen, names, n_names, &kid)) != GB_OK ||
        (st = gb_add_kid(e, kid)) != GB_OK) {
        gb_expr_free(e);
        return st;
    }
    *out = e;
    return GB_OK;
}

/* A chain of `op` ("&&" or "||") at depth 0 of s[0..len): one node with a
 * child per operand, found in one scan. */
static enum gb_status gb_parse_chain(const char *s, size_t len, const char *opt, enum gb_expr_op op,
                                     const char *const *names, int n_names, struct gb_expr **out)
{
    enum gb_status st = GB_OK;
    struct gb_expr *e = gb_node(op, s, len);
    if (!e)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i <= len && st == GB_OK; i++) {
        if (i < len && s[i] == '(')
            depth++;
        else if (i < len && s[i] == ')')
            depth--;
        if (i < len && (depth != 0 || i + 1 >= len || s[i] != opt[0] || s[i + 1] != opt[1]))
            continue;
        struct gb_expr *kid = NULL;
        if ((st = gb_parse(s + start, i - start, names, n_names, &kid)) == GB_OK)
            st = gb_add_kid(e, kid);
        start = i + 2;
        i++;
    }
    if (st != GB_OK) {
        gb_expr_free(e);
        return st;
    }
    *out = e;
    return GB_OK;
}

/* A call of ceil/floor/min/max whose arguments lie in s[0..len). */
static enum gb_status gb_parse_call(const char *fn, const char *s, size_t len, const char *const *names,
                                    int n_names, struct gb_expr **out)
{
    enum gb_expr_op op = !strcmp(fn, "ceil") ? GB_EX_CEIL : !strcmp(fn, "floor") ? GB_EX_FLOOR
                       : !strcmp(fn, "min")  ? GB_EX_MIN  : GB_EX_MAX;
    enum gb_status st = GB_OK;
    struct gb_expr *e = gb_node(op, s, len);
    if (!e)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i <= len && st == GB_OK; i++) {
        if (i < len && s[i] == '(')
            depth++;
        else if (i < len && s[i] == ')')
            depth--;
        if (i < len && (depth != 0 || s[i] != ','))
            continue;
        struct gb_expr *kid = NULL;
        if ((st = gb_parse(s + start, i - start, names, n_names, &kid)) == GB_OK)
            st = gb_add_kid(e, kid);
        start = i + 1;
    }
    if (st == GB_OK && (op == GB_EX_CEIL || op == GB_EX_FLOOR) && e->n_kids != 1)
        st = gb_error_set(GB_ERR_USAGE, "%s() takes 1 argument, not %d", fn, e->n_kids);
    if (st == GB_OK && (op == GB_EX_MIN || op == GB_EX_MAX) && e->n_kids < 2)
        st = gb_error_set(GB_ERR_USAGE, "%s() takes at least 2 arguments", fn);
    if (st != GB_OK) {
        gb_expr_free(e);
        return st;
    }
    *out = e;
    return GB_OK;
}

/* Appends to a growing buffer. */
struct gb_buf {
    char *s;
    size_t n, cap;
};

static int gb_buf_add(struct gb_buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *p = realloc(b->s, cap);
        if (!p)
            return -1;
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
    return 0;
}

/* Characters libmatheval's grammar knows (its scanner prints any other). */
static int gb_arith_char(char c)
{
    return isalnum((unsigned char)c) || strchr("_.+-*/^() \t\n\r", c) != NULL;
}

/* Binds libmatheval's variables to names and children. */
static enum gb_status gb_bind_vars(struct gb_expr *e, const char *const *names, int n_names)
{
    char **vars;
    int n;
    evaluator_get_variables(e->ev, &vars, &n);
    e->var_names = vars;
    e->n_vars = n;
    if (n && !(e->var_ref = calloc((size_t)n, sizeof *e->var_ref)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int k = 0; k < n; k++) {
        int found = -1;
        if (strncmp(vars[k], GB_EX_PLACEHOLDER, strlen(GB_EX_PLACEHOLDER)) == 0) {
            int kid = atoi(vars[k] + strlen(GB_EX_PLACEHOLDER));
            if (kid < 0 || kid >= e->n_kids)
                return gb_error_set(GB_ERR_USAGE, "unknown name \"%s\"", vars[k]);
            e->var_ref[k] = -1 - kid;
            continue;
        }
        for (int i = 0; i < n_names && found < 0; i++)
            if (strcmp(names[i], vars[k]) == 0)
                found = i;
        if (found < 0)
            return gb_error_set(GB_ERR_USAGE, "unknown name \"%s\"", vars[k]);
        e->var_ref[k] = found;
    }
    return GB_OK;
}

/* The identifier at s[i] (letters, digits, '_'), its length. */
static size_t gb_ident_len(const char *s, size_t len, size_t i)
{
    size_t k = i;
    while (k < len && (isalnum((unsigned char)s[k]) || s[k] == '_'))
        k++;
    return k - i;
}

/* Puts a placeholder for `kid` into `b`. */
static enum gb_status gb_placeholder(struct gb_expr *e, struct gb_expr *kid, struct gb_buf *b)
{
    char ph[32];
    int n = snprintf(ph, sizeof ph, " %s%d ", GB_EX_PLACEHOLDER, e->n_kids);
    enum gb_status st = gb_add_kid(e, kid);
    if (st != GB_OK)
        return st;
    return gb_buf_add(b, ph, (size_t)n) ? gb_error_set(GB_ERR_NOMEM, "out of host memory") : GB_OK;
}

/* One step of the arithmetic scan at s[*i]: a call, a group holding a
 * comparison, or plain text copied through. */
static enum gb_status gb_arith_step(struct gb_expr *e, const char *s, size_t len, size_t *i, struct gb_buf *b,
                                    const char *const *names, int n_names)
{
    struct gb_expr *kid = NULL;
    enum gb_status st;
    char c = s[*i];
    if (isalpha((unsigned char)c) || c == '_') {
        size_t il = gb_ident_len(s, len, *i);
        char fn[8] = "";
        size_t j = *i + il;
        while (j < len && isspace((unsigned char)s[j]))
            j++;
        if (il < sizeof fn)
            memcpy(fn, s + *i, il), fn[il] = '\0';
        if (j < len && s[j] == '(' && (!strcmp(fn, "ceil") || !strcmp(fn, "floor") || !strcmp(fn, "min") ||
                                       !strcmp(fn, "max"))) {
            long close = gb_match_paren(s, len, j);
            if ((st = gb_parse_call(fn, s + j + 1, (size_t)close - j - 1, names, n_names, &kid)) != GB_OK)
                return st;
            *i = (size_t)close + 1;
            return gb_placeholder(e, kid, b);
        }
        if (gb_buf_add(b, s + *i, il))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        *i += il;
        return GB_OK;
    }
    if (c == '(') {
        long close = gb_match_paren(s, len, *i);
        if (gb_has_top_logic(s + *i + 1, (size_t)close - *i - 1)) {
            if ((st = gb_parse(s + *i + 1, (size_t)close - *i - 1, names, n_names, &kid)) != GB_OK)
                return st;
            *i = (size_t)close + 1;
            return gb_placeholder(e, kid, b);
        }
    } else if (!gb_arith_char(c)) {
        return gb_error_set(GB_ERR_USAGE, "unexpected character '%c'", c);
    }
    if (gb_buf_add(b, &c, 1))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    (*i)++;
    return GB_OK;
}

/* The kind of the token at t[*i], which is then passed: 'v' an operand
 * (number or name), 'f' a function name before '(', or the character. */
static char gb_token(const char *t, size_t *i)
{
    size_t k = *i;
    if (isdigit((unsigned char)t[k]) || t[k] == '.') {
        while (isdigit((unsigned char)t[k]) || t[k] == '.')
            k++;
        if ((t[k] == 'e' || t[k] == 'E') &&
            (isdigit((unsigned char)t[k + 1]) || ((t[k + 1] == '+' || t[k + 1] == '-') && isdigit((unsigned char)t[k + 2]))))
            for (k += 2; isdigit((unsigned char)t[k]); k++)
                ;
        *i = k;
        return 'v';
    }
    if (isalpha((unsigned char)t[k]) || t[k] == '_') {
        while (isalnum((unsigned char)t[k]) || t[k] == '_')
            k++;
        size_t j = k;
        while (isspace((unsigned char)t[j]))
            j++;
        *i = k;
        return t[j] == '(' ? 'f' : 'v';
    }
    *i = k + 1;
    return t[k];
}

/* Two operands with nothing between them ("n m", "2 (n)", ") n") are
 * refused here: libmatheval's parser would refuse them too, but loses
 * memory doing so. */
static enum gb_status gb_check_adjacent(const char *t)
{
    char prev = 0;
    for (size_t i = 0; t[i];) {
        if (isspace((unsigned char)t[i])) {
            i++;
            continue;
        }
        size_t start = i;
        char k = gb_token(t, &i);
        int known = 0;
        for (int f = 0; k == 'f' && f < GB_EX_N_FUNCS && !known; f++)
            known = strlen(gb_expr_reserved_names[f]) == i - start &&
                    strncmp(t + start, gb_expr_reserved_names[f], i - start) == 0;
        if (k == 'f' && !known)
            return gb_error_set(GB_ERR_USAGE, "unknown function \"%.*s\" (ceil, floor, min, max, sqrt, exp, log, "
                                "abs, ...)", (int)(i - start), t + start);
        int operand_end = prev == 'v' || prev == ')', operand_start = k == 'v' || k == 'f' || k == '(';
        if (operand_end && operand_start)
            return gb_error_set(GB_ERR_USAGE, "two operands without an operator between them");
        prev = k;
    }
    return GB_OK;
}

static enum gb_status gb_parse_arith(const char *s, size_t len, const char *const *names, int n_names,
                                     struct gb_expr **out)
{
    enum gb_status st = GB_OK;
    struct gb_buf b = {0};
    struct gb_expr *e = gb_node(GB_EX_ARITH, s, len);
    if (!e)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (size_t i = 0; i < len && st == GB_OK;)
        st = gb_arith_step(e, s, len, &i, &b, names, n_names);
    if (st == GB_OK && b.s)
        st = gb_check_adjacent(b.s);
    if (st == GB_OK) {
        pthread_mutex_lock(&gb_expr_lock);
        e->ev = b.s ? evaluator_create(b.s) : NULL;
        if (!e->ev)
            st = gb_error_set(GB_ERR_USAGE, "not an expression (libmatheval cannot read \"%.*s\")", (int)len, s);
        else
            st = gb_bind_vars(e, names, n_names);
        pthread_mutex_unlock(&gb_expr_lock);
    }
    free(b.s);
    if (st != GB_OK) {
        gb_expr_free(e);
        return st;
    }
    *out = e;
    return GB_OK;
}

/* s[0..len), its outer blanks and enclosing parentheses taken away. */
static void gb_trim(const char **s, size_t *len)
{
    for (;;) {
        while (*len && isspace((unsigned char)(*s)[0]))
            (*s)++, (*len)--;
        while (*len && isspace((unsigned char)(*s)[*len - 1]))
            (*len)--;
        if (*len >= 2 && (*s)[0] == '(' && gb_match_paren(*s, *len, 0) == (long)*len - 1) {
            (*s)++;
            *len -= 2;
            continue;
        }
        return;
    }
}

static enum gb_status gb_parse(const char *s, size_t len, const char *const *names, int n_names,
                               struct gb_expr **out)
{
    static const char *const or_op[] = {"||"}, *const and_op[] = {"&&"};
    size_t at, at2;
    int which, w2;
    gb_trim(&s, &len);
    if (len == 0)
        return gb_error_set(GB_ERR_USAGE, "an empty expression");
    if (gb_find_top(s, len, or_op, 1, &at, &which))
        return gb_parse_chain(s, len, "||", GB_EX_OR, names, n_names, out);
    if (gb_find_top(s, len, and_op, 1, &at, &which))
        return gb_parse_chain(s, len, "&&", GB_EX_AND, names, n_names, out);
    if (gb_find_top(s, len, gb_cmp_ops, 6, &at, &which)) {
        size_t ol = strlen(gb_cmp_ops[which]);
        if (gb_find_top(s + at + ol, len - at - ol, gb_cmp_ops, 6, &at2, &w2))
            return gb_error_set(GB_ERR_USAGE, "chained comparison (write a < b && b < c)");
        return gb_parse_binary(s, len, at, ol, gb_cmp_codes[which], names, n_names, out);
    }
    return gb_parse_arith(s, len, names, n_names, out);
}

enum gb_status gb_expr_parse(const char *text, const char *const *names, int n_names, struct gb_expr **out)
{
    size_t len = strnlen(text, GB_EXPR_MAX_LEN + 1);
    int depth = 0, deepest = 0;
    *out = NULL;
    if (len > GB_EXPR_MAX_LEN)
        return gb_error_set(GB_ERR_USAGE, "longer than %d characters (%zu); split it into defines",
                            GB_EXPR_MAX_LEN, strlen(text));
    for (size_t i = 0; i < len && depth >= 0; i++) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        deepest = depth > deepest ? depth : deepest;
    }
    if (depth != 0)
        return gb_error_set(GB_ERR_USAGE, "unbalanced parentheses");
    if (deepest > GB_EXPR_MAX_DEPTH)
        return gb_error_set(GB_ERR_USAGE, "parentheses nested %d deep, more than %d; split it into defines",
                            deepest, GB_EXPR_MAX_DEPTH);
    /* The placeholders name the layer's own nodes: a name of that form in the
     * text would be taken for one (and index past the nodes there are). */
    if (strstr(text, GB_EX_PLACEHOLDER))
        return gb_error_set(GB_ERR_USAGE, "names beginning with \"" GB_EX_PLACEHOLDER "\" are reserved");
    struct gb_expr *e = NULL;
    enum gb_status st = gb_parse(text, len, names, n_names, &e);
    if (st != GB_OK)
        return st;
    /* The root keeps the whole text as written. */
    char *t = strdup(text);
    if (!t) {
        gb_expr_free(e);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    free(e->text);
    e->text = t;
    *out = e;
    return GB_OK;
}

/* ---- evaluation ---- */

static enum gb_status gb_eval_arith(const struct gb_expr *e, const double *values, const double *kid_v,
                                    double *out)
{
    double stack_v[16];
    double *v = e->n_vars <= 16 ? stack_v : malloc((size_t)e->n_vars * sizeof *v);
    if (!v)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int k = 0; k < e->n_vars; k++)
        v[k] = e->var_ref[k] >= 0 ? values[e->var_ref[k]] : kid_v[-1 - e->var_ref[k]];
    pthread_mutex_lock(&gb_expr_lock);
    *out = evaluator_evaluate(e->ev, e->n_vars, e->var_names, v);
    pthread_mutex_unlock(&gb_expr_lock);
    if (v != stack_v)
        free(v);
    return GB_OK;
}

static double gb_eval_op(enum gb_expr_op op, const double *k, int n)
{
    double r;
    switch (op) {
    case GB_EX_CEIL: return ceil(k[0]);
    case GB_EX_FLOOR: return floor(k[0]);
    case GB_EX_MIN:
    case GB_EX_MAX:
        r = k[0];
        for (int i = 1; i < n; i++)
            if (isnan(k[i]) || (op == GB_EX_MIN ? k[i] < r : k[i] > r))
                r = k[i];
        return r;
    case GB_EX_LT: return k[0] < k[1];
    case GB_EX_LE: return k[0] <= k[1];
    case GB_EX_GT: return k[0] > k[1];
    case GB_EX_GE: return k[0] >= k[1];
    case GB_EX_EQ: return k[0] == k[1];
    case GB_EX_NE: return k[0] != k[1];
    case GB_EX_AND:
    case GB_EX_OR:
        for (int i = 0; i < n; i++)
            if ((k[i] != 0) == (op == GB_EX_OR))
                return op == GB_EX_OR;
        return op == GB_EX_AND;
    case GB_EX_ARITH: break;
    }
    return NAN;
}

enum gb_status gb_expr_eval(const struct gb_expr *e, const double *values, double *out)
{
    enum gb_status st = GB_OK;
    double stack_k[8];
    double *k = e->n_kids <= 8 ? stack_k : malloc((size_t)e->n_kids * sizeof *k);
    if (!k)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int i = 0; i < e->n_kids && st == GB_OK; i++)
        st = gb_expr_eval(e->kids[i], values, &k[i]);
    if (st == GB_OK) {
        if (e->op == GB_EX_ARITH)
            st = gb_eval_arith(e, values, k, out);
        else
            *out = gb_eval_op(e->op, k, e->n_kids);
    }
    if (k != stack_k)
        free(k);
    return st;
}
