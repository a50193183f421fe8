/* spec_cache.c - the problems of kernel spec benches kept on the device
 * (spec_cache.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/spec_cache.h"

unsigned long gb_spec_cache_new_id(void)
{
    static unsigned long last;
    return ++last;
}

size_t gb_spec_cache_budget(size_t free_bytes)
{
    return free_bytes / 2;
}

static size_t gb_buf_bytes(size_t bytes)
{
    return bytes ? bytes : 16; /* a zero-length buffer still gets an address */
}

static size_t gb_need_bytes(const struct gb_spec_need *n)
{
    size_t sum = 0;
    for (int i = 0; i < GB_SPEC_MAX_ARGS; i++)
        if (n->buffer[i])
            sum += gb_buf_bytes(n->bytes[i]) * (size_t)(1 + (n->init[i] != 0) + (n->ref[i] != 0));
    return sum;
}

static int gb_need_same(const struct gb_spec_need *a, const struct gb_spec_need *b)
{
    for (int i = 0; i < GB_SPEC_MAX_ARGS; i++)
        if (a->buffer[i] != b->buffer[i] || (a->buffer[i] && (a->bytes[i] != b->bytes[i] ||
                                                              !a->init[i] != !b->init[i] || !a->ref[i] != !b->ref[i])))
            return 0;
    return 1;
}

static void gb_problem_free(struct gb_spec_cache *c, struct gb_spec_problem *p)
{
    for (int i = 0; i < GB_SPEC_MAX_ARGS; i++) {
        if (p->data[i])
            c->free(c->ctx, p->data[i]);
        if (p->init[i])
            c->free(c->ctx, p->init[i]);
        if (p->ref[i])
            c->free(c->ctx, p->ref[i]);
    }
    c->held -= p->held;
    free(p);
}

void gb_spec_cache_drop(struct gb_spec_cache *c, struct gb_spec_problem *p)
{
    for (struct gb_spec_problem **pp = &c->list; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            gb_problem_free(c, p);
            return;
        }
}

void gb_spec_cache_clear(struct gb_spec_cache *c)
{
    while (c->list)
        gb_spec_cache_drop(c, c->list);
}

/* Evicts the least recently used problem not in use; 0 when none is left. */
static int gb_evict_one(struct gb_spec_cache *c)
{
    struct gb_spec_problem *lru = NULL;
    for (struct gb_spec_problem *p = c->list; p; p = p->next)
        if (!p->in_use && (!lru || p->used < lru->used))
            lru = p;
    if (!lru)
        return 0;
    gb_spec_cache_drop(c, lru);
    c->evicted++;
    return 1;
}

/* One allocation, evicting on out-of-memory until nothing is left to evict. */
static enum gb_status gb_alloc_evicting(struct gb_spec_cache *c, size_t bytes, CUdeviceptr *out)
{
    enum gb_status st;
    while ((st = c->alloc(c->ctx, bytes, out)) == GB_ERR_DEVICE_OOM)
        if (!gb_evict_one(c))
            break;
    return st;
}

static enum gb_status gb_problem_alloc(struct gb_spec_cache *c, struct gb_spec_problem *p)
{
    enum gb_status st = GB_OK;
    for (int i = 0; i < GB_SPEC_MAX_ARGS && st == GB_OK; i++) {
        size_t n = gb_buf_bytes(p->need.bytes[i]);
        if (!p->need.buffer[i])
            continue;
        if ((st = gb_alloc_evicting(c, n, &p->data[i])) == GB_OK && p->need.init[i])
            st = gb_alloc_evicting(c, n, &p->init[i]);
        if (st == GB_OK && p->need.ref[i])
            st = gb_alloc_evicting(c, n, &p->ref[i]);
    }
    return st;
}

struct gb_spec_problem *gb_spec_cache_find(struct gb_spec_cache *c, unsigned long bench, const char *key)
{
    for (struct gb_spec_problem *p = c->list; p; p = p->next)
        if (p->bench == bench && strcmp(p->key, key) == 0)
            return p;
    return NULL;
}

enum gb_status gb_spec_cache_get(struct gb_spec_cache *c, unsigned long bench, const char *key,
                                 const struct gb_spec_need *need, struct gb_spec_problem **out, int *fresh)
{
    enum gb_status st;
    struct gb_spec_problem *p = gb_spec_cache_find(c, bench, key);
    size_t bytes = gb_need_bytes(need);
    *out = NULL;
    *fresh = 0;
    if (p && !p->in_use && !gb_need_same(&p->need, need)) {
        gb_spec_cache_drop(c, p);
        p = NULL;
    }
    if (p) {
        p->used = ++c->clock;
        p->in_use = 1;
        *out = p;
        return GB_OK;
    }
    while (c->held + bytes > c->budget && gb_evict_one(c))
        ;
    if (!(p = calloc(1, sizeof *p)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->bench = bench;
    snprintf(p->key, sizeof p->key, "%s", key);
    p->need = *need;
    p->held = bytes;
    p->in_use = 1;
    p->used = ++c->clock;
    c->held += bytes;
    p->next = c->list;
    c->list = p;
    if ((st = gb_problem_alloc(c, p)) != GB_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", gb_error_message());
        gb_spec_cache_drop(c, p);
        if (st == GB_ERR_DEVICE_OOM)
            st = gb_error_set(GB_ERR_DEVICE_OOM, "the problem %s needs %.3f GiB of device memory for its inputs, "
                              "outputs and reference, and does not fit even with every other problem evicted "
                              "(%s); make the problem smaller", key[0] ? key : "of this bench",
                              bytes / 1073741824.0, why);
        return st;
    }
    c->made++;
    *out = p;
    *fresh = 1;
    return GB_OK;
}

void gb_spec_cache_done(struct gb_spec_problem *p)
{
    if (p)
        p->in_use = 0;
}
