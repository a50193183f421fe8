/* clocks.c - the table of clocks (clocks.h): one row a clock, in the order
 * auto tries them. The profiler's gpu__time_duration is the counter Nsight
 * Compute reports; CUPTI's kernel timestamps leave out 0.6 to 1.5 us of it,
 * and with its activity records on some kernels run slower: a launch of
 * 36,864 empty 1024-thread blocks took 47.6 us by CUPTI's timestamps,
 * 29.2 us by events and 27.0 us by the profiler on an H200
 * (docs/measurement.md). Each falls back to the next. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/clocks.h"

static const struct gb_clock gb_clock_rows[] = {
    {
        .name = "profiler",
        .can = GB_CLOCK_KERNEL,
        .fallback = "cupti",
        .open = gb_timer_profiler_open,
        .prime = gb_timer_profiler_prime,
        .set_aside = gb_timer_profiler_set_aside,
        .holds = gb_timer_profiler_holds,
        .release_state = gb_timer_profiler_release_state,
    },
    {
        .name = "cupti",
        .can = GB_CLOCK_KERNEL | GB_CLOCK_NO_KERNEL | GB_CLOCK_BATCH,
        .fallback = "events",
        .open = gb_timer_cupti_open,
    },
    {
        .name = "events",
        .can = GB_CLOCK_KERNEL | GB_CLOCK_NO_KERNEL | GB_CLOCK_BATCH,
        .open = gb_timer_events_open,
    },
};

#define GB_CLOCK_ROWS (sizeof gb_clock_rows / sizeof gb_clock_rows[0])

static const struct gb_clock_table gb_clock_table = {gb_clock_rows, GB_CLOCK_ROWS};

const struct gb_clock_table *gb_clocks(void)
{
    return &gb_clock_table;
}

const struct gb_clock *gb_clock_find(const struct gb_clock_table *tab, int choice)
{
    return choice > GB_TIMER_AUTO && (size_t)choice <= tab->n ? &tab->rows[choice - 1] : NULL;
}

int gb_clock_choice(const struct gb_clock_table *tab, const struct gb_clock *c)
{
    return c && c >= tab->rows && c < tab->rows + tab->n ? (int)(c - tab->rows) + 1 : GB_TIMER_AUTO;
}

const struct gb_clock *gb_clock_named(const struct gb_clock_table *tab, const char *name)
{
    for (size_t i = 0; name && i < tab->n; i++)
        if (strcmp(tab->rows[i].name, name) == 0)
            return &tab->rows[i];
    return NULL;
}

int gb_clock_parse(const struct gb_clock_table *tab, const char *name)
{
    if (strcmp(name, "auto") == 0)
        return GB_TIMER_AUTO;
    const struct gb_clock *c = gb_clock_named(tab, name);
    return c ? gb_clock_choice(tab, c) : -1;
}

void gb_clock_choices(const struct gb_clock_table *tab, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "auto");
    const char *last = "";
    /* The rows' names in alphabetical order: each round takes the least
     * name after the last one written. */
    for (size_t k = 0; k < tab->n && len < n; k++) {
        const char *next = NULL;
        for (size_t i = 0; i < tab->n; i++)
            if (strcmp(tab->rows[i].name, last) > 0 && (!next || strcmp(tab->rows[i].name, next) < 0))
                next = tab->rows[i].name;
        if (!next)
            break;
        len += (size_t)snprintf(buf + len, n - len, "%s%s", k + 1 < tab->n ? ", " : " or ", next);
        last = next;
    }
}

const struct gb_clock *gb_clock_first(const struct gb_clock_table *tab, int choice)
{
    if (choice == GB_TIMER_AUTO)
        return tab->n ? &tab->rows[0] : NULL;
    return gb_clock_find(tab, choice);
}

const struct gb_clock *gb_clock_next(const struct gb_clock_table *tab, const struct gb_clock *c)
{
    return c ? gb_clock_named(tab, c->fallback) : NULL;
}

enum gb_status gb_clock_open(const struct gb_clock_table *tab, const struct gb_clock *c, int choice,
                             unsigned flags, struct gb_gpu *g, struct gb_timer *t,
                             const struct gb_clock **opened)
{
    enum gb_status st = GB_OK;
    if (!c)
        return gb_error_set(GB_ERR_USAGE, "no clock %d in the table", choice);
    /* At most one try a row: a table whose fallbacks loop ends. */
    for (size_t tries = 0; c && tries < tab->n; tries++) {
        *opened = c;
        st = c->open(g, flags, t);
        const struct gb_clock *next = gb_clock_next(tab, c);
        if (st != GB_ERR_UNSUPPORTED || choice != GB_TIMER_AUTO || !next)
            return st;
        if (t->release)
            t->release(t->self);
        c = next;
    }
    return st;
}

int gb_clock_refused(const struct gb_clock_table *tab, const struct gb_clock *c, int choice, enum gb_status st)
{
    return st == GB_ERR_UNSUPPORTED && choice == GB_TIMER_AUTO && c && !(c->can & GB_CLOCK_NO_KERNEL) &&
           gb_clock_next(tab, c) != NULL;
}

int gb_clocks_hold(const struct gb_clock_table *tab, const struct gb_gpu *g)
{
    for (size_t i = 0; i < tab->n; i++)
        if (tab->rows[i].holds && tab->rows[i].holds(g))
            return 1;
    return 0;
}

void gb_clocks_set_aside(const struct gb_clock_table *tab, struct gb_gpu *g)
{
    for (size_t i = 0; i < tab->n; i++)
        if (tab->rows[i].set_aside)
            tab->rows[i].set_aside(g);
}

/* The clocks' slots of one GPU: one a row of gpubound's table. */
struct gb_clock_states {
    void *state[GB_CLOCK_ROWS];
};

/* The GPU closes: each clock frees what it keeps in its slot. */
static void gb_clock_states_release(struct gb_gpu *g)
{
    struct gb_clock_states *s = g->clock_state;
    for (size_t i = 0; s && i < GB_CLOCK_ROWS; i++)
        if (s->state[i] && gb_clock_rows[i].release_state)
            gb_clock_rows[i].release_state(s->state[i]);
    free(s);
    g->clock_state = NULL;
    g->clock_state_release = NULL;
}

void **gb_clock_state(struct gb_gpu *g, const char *name, int create)
{
    const struct gb_clock *c = gb_clock_named(&gb_clock_table, name);
    if (!c)
        return NULL;
    if (!g->clock_state && create) {
        g->clock_state = calloc(1, sizeof(struct gb_clock_states));
        g->clock_state_release = g->clock_state ? gb_clock_states_release : NULL;
    }
    struct gb_clock_states *s = g->clock_state;
    return s ? &s->state[c - gb_clock_rows] : NULL;
}
