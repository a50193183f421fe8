/* ptx_inflight.c - the largest group of global loads one thread keeps in
 * flight, read from an entry's PTX (gpubound/ptx.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/ptx.h"

#define PX_MAX_TAINT 512
#define PX_REG_LEN 24

/* The registers whose values come from the open group's loads. */
struct px_state {
    char taint[PX_MAX_TAINT][PX_REG_LEN];
    int n_taint;
    double bytes;   /* the open group */
    int loads;
    struct gb_ptx_inflight best;
};

static void px_close(struct px_state *s)
{
    if (s->loads > 0) {
        s->best.groups++;
        if (s->bytes > s->best.bytes) {
            s->best.bytes = s->bytes;
            s->best.loads = s->loads;
        }
    }
    s->bytes = 0;
    s->loads = 0;
    s->n_taint = 0;
}

static int px_tainted(const struct px_state *s, const char *reg)
{
    for (int i = 0; i < s->n_taint; i++)
        if (strcmp(s->taint[i], reg) == 0)
            return 1;
    return 0;
}

static void px_taint(struct px_state *s, const char *reg)
{
    if (!px_tainted(s, reg) && s->n_taint < PX_MAX_TAINT)
        snprintf(s->taint[s->n_taint++], PX_REG_LEN, "%s", reg);
}

/* The next register name ("%r12", "%rd3", "%f1") in [p, end), or NULL;
 * *next past it. */
static const char *px_reg(const char *p, const char *end, char *out, const char **next)
{
    while (p < end && *p != '%')
        p++;
    if (p >= end)
        return NULL;
    size_t n = 1;
    while (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '.') && n < PX_REG_LEN - 1)
        n++;
    memcpy(out, p, n);
    out[n] = '\0';
    /* A special register's field (%tid.x) is no data of a load. */
    *next = p + n;
    return out;
}

/* Whether any register in [p, end) is tainted. */
static int px_any_tainted(const struct px_state *s, const char *p, const char *end)
{
    char reg[PX_REG_LEN];
    while (px_reg(p, end, reg, &p))
        if (px_tainted(s, reg))
            return 1;
    return 0;
}

static void px_taint_all(struct px_state *s, const char *p, const char *end)
{
    char reg[PX_REG_LEN];
    while (px_reg(p, end, reg, &p))
        px_taint(s, reg);
}

/* Bytes per thread of a load's type suffixes (".v4.f32": 16). */
static double px_load_bytes(const char *op, size_t n)
{
    int vec = 1, el = 4;
    for (const char *q = op; q < op + n; q++) {
        if (*q != '.')
            continue;
        const char *t = q + 1;
        if (t[0] == 'v' && isdigit((unsigned char)t[1]))
            vec = atoi(t + 1);
        else if ((t[0] == 'f' || t[0] == 'u' || t[0] == 's' || t[0] == 'b') && isdigit((unsigned char)t[1]))
            el = atoi(t + 1) / 8;
        else if (!strncmp(t, "f16x2", 5) || !strncmp(t, "bf16x2", 6))
            el = 4;
    }
    return (double)(vec > 0 ? vec : 1) * (el > 0 ? el : 1);
}

static int px_has(const char *op, size_t n, const char *part)
{
    size_t k = strlen(part);
    for (const char *q = op; q + k <= op + n; q++)
        if (!strncmp(q, part, k) && (q + k == op + n || q[k] == '.'))
            return 1;
    return 0;
}

/* Whether `part` occurs anywhere in opcode `op` (n characters): .shared
 * also as .shared::cta or .shared::cluster. */
static int px_mentions(const char *op, size_t n, const char *part)
{
    size_t k = strlen(part);
    for (const char *q = op; q + k <= op + n; q++)
        if (!strncmp(q, part, k))
            return 1;
    return 0;
}

/* Whether opcode `op` (n characters) names a state space other than global. */
static int px_other_space(const char *op, size_t n)
{
    return px_has(op, n, ".param") || px_has(op, n, ".shared") || px_has(op, n, ".local") ||
           px_has(op, n, ".const") || px_has(op, n, ".tex");
}

static int px_starts(const char *op, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && !strncmp(op, w, k) && (n == k || op[k] == '.');
}

/* One statement [p, end) (no ';', no label). */
static void px_statement(struct px_state *s, const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p < end && *p == '@') {                  /* a guard: @%p1 or @!%p1 */
        while (p < end && !isspace((unsigned char)*p))
            p++;
        while (p < end && isspace((unsigned char)*p))
            p++;
    }
    const char *op = p;
    while (p < end && !isspace((unsigned char)*p))
        p++;
    size_t n = (size_t)(p - op);
    if (n == 0 || *op == '.')
        return;                                  /* a directive */
    int load = (px_starts(op, n, "ld") || px_starts(op, n, "ldu")) && !px_other_space(op, n);
    int store = px_starts(op, n, "st") && !px_other_space(op, n);
    int atomic = px_starts(op, n, "atom") || px_starts(op, n, "red");
    if (atomic && !px_mentions(op, n, ".shared"))
        s->best.atomics++;
    if (store || atomic || px_starts(op, n, "bar") ||
        px_starts(op, n, "barrier") || px_starts(op, n, "membar") || px_starts(op, n, "fence") ||
        px_starts(op, n, "bra") || px_starts(op, n, "ret") || px_starts(op, n, "exit") ||
        px_starts(op, n, "call") || px_starts(op, n, "brx")) {
        px_close(s);
        return;
    }
    /* The destination: the operands before the first comma outside braces. */
    const char *d = p, *q = p;
    int depth = 0;
    while (q < end && !(*q == ',' && depth == 0)) {
        depth += *q == '{';
        depth -= *q == '}';
        q++;
    }
    if (load) {
        const char *lb = memchr(q, '[', (size_t)(end - q)), *rb = lb ? memchr(lb, ']', (size_t)(end - lb)) : NULL;
        if (lb && rb && px_any_tainted(s, lb, rb))
            px_close(s);                         /* its address waits for the group */
        s->bytes += px_load_bytes(op, n);
        s->loads++;
        px_taint_all(s, d, q);
        return;
    }
    if (q < end && px_any_tainted(s, q, end))
        px_taint_all(s, d, q);
}

/* [*body, *end) of entry `entry`'s body, inside its braces. */
static enum gb_status px_body(const char *ptx, const char *entry, const char **body, const char **end)
{
    const char *p = ptx;
    size_t n = entry ? strlen(entry) : 0;
    for (;;) {
        p = strstr(p, ".entry");
        if (!p)
            return gb_error_set(GB_ERR_FORMAT, "the PTX has no entry %s", n ? entry : "at all");
        p += 6;
        while (isspace((unsigned char)*p))
            p++;
        if (!n || (!strncmp(p, entry, n) && (p[n] == '(' || isspace((unsigned char)p[n]))))
            break;
    }
    p = strchr(p, '{');
    for (int depth = 0; p && *p; p++) {
        if (*p == '{' && depth++ == 0)
            *body = p + 1;
        else if (*p == '}' && --depth == 0) {
            *end = p;
            return GB_OK;
        }
    }
    return gb_error_set(GB_ERR_FORMAT, "the PTX's entry %s does not close", n ? entry : "");
}

enum gb_status gb_ptx_inflight(const char *ptx, const char *entry, struct gb_ptx_inflight *out)
{
    const char *p = NULL, *end = NULL;
    enum gb_status st = px_body(ptx, entry && entry[0] ? entry : NULL, &p, &end);
    struct px_state *s = calloc(1, sizeof *s);
    memset(out, 0, sizeof *out);
    if (st != GB_OK || !s) {
        free(s);
        return st != GB_OK ? st : gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    while (p < end) {
        const char *line_end = memchr(p, '\n', (size_t)(end - p));
        if (!line_end)
            line_end = end;
        const char *c = p;
        while (c < line_end && isspace((unsigned char)*c))
            c++;
        const char *cm = c;                      /* a comment ends the line */
        while (cm + 1 < line_end && !(cm[0] == '/' && cm[1] == '/'))
            cm++;
        const char *stop = cm + 1 < line_end ? cm : line_end;
        const char *colon = memchr(c, ':', (size_t)(stop - c));
        if (colon && colon + 1 <= stop && !memchr(c, ' ', (size_t)(colon - c)) && !memchr(c, '\t', (size_t)(colon - c)) &&
            !memchr(c, ';', (size_t)(stop - c))) {
            px_close(s);                         /* a label: another basic block */
        } else {
            for (const char *a = c; a < stop;) {
                const char *semi = memchr(a, ';', (size_t)(stop - a));
                const char *e = semi ? semi : stop;
                px_statement(s, a, e);
                a = semi ? semi + 1 : stop;
            }
        }
        p = line_end + 1;
    }
    px_close(s);
    *out = s->best;
    free(s);
    return GB_OK;
}
