/* clocks.h - the table of clocks that can time a point's samples.
 *
 * Each clock is one row of a table (clocks.c): its name (what --timer
 * takes and a record's time_source says), what it can time,
 * how it opens a struct gb_timer (timer.h), and which clock a point tries
 * when this one cannot be had. The harness and the session pick, open,
 * prime and set aside clocks only through the table and never compare a
 * clock's name. A clock that keeps state on a GPU from point to point (the
 * profiler's range profiler) keeps it in its own row's slot of that GPU
 * (gb_clock_state), not in struct gb_gpu. Adding a clock is one backend
 * file and one row (docs/architecture.md, "Adding a clock"): no enum
 * names the clocks. A clock's --timer choice (gb_measure_opts.timer) is
 * its row's place in the table plus one (gb_clock_choice); GB_TIMER_AUTO
 * (0) is no row.
 */
#ifndef GB_MEASURE_CLOCKS_H
#define GB_MEASURE_CLOCKS_H

#include <stddef.h>

#include "gpubound/gpu.h"
#include "gpubound/measure.h"
#include "measure/timer.h"

/* What a clock can time (gb_clock.can, or'ed). */
enum gb_clock_can {
    GB_CLOCK_KERNEL = 1 << 0,    /* a launch that runs a kernel */
    GB_CLOCK_NO_KERNEL = 1 << 1, /* a launch that runs no kernel (a copy, a set) */
    GB_CLOCK_BATCH = 1 << 2,     /* a graph of launches as one sample (else one launch a sample) */
};

/* gb_clock.open's flags. GB_CLOCK_REPLACES: the clock is opened in the
 * middle of a point, in place of one that refused the point's launch (the
 * refused clock's fallback); its samples are one launch each (the clock
 * sets its own timer's one_launch): the refused clock may stay attached to
 * the context, and a captured graph of copies launched under the profiler
 * lost the context (an H100, driver 580). */
#define GB_CLOCK_REPLACES 1u

struct gb_clock {
    const char *name;            /* the timer's name: "profiler" (unique in its table) */
    unsigned can;                /* enum gb_clock_can */
    /* The name of the row tried when this one cannot be had (open says
     * GB_ERR_UNSUPPORTED), or refuses a launch it cannot time, unless the
     * user named this one; NULL (or a name no row has): none. */
    const char *fallback;
    /* Fills `t` (memset first; t->release set even on failure, so that the
     * caller can always release). GB_ERR_UNSUPPORTED with the reason when
     * the clock cannot be had here. */
    enum gb_status (*open)(struct gb_gpu *g, unsigned flags, struct gb_timer *t);
    /* Optional (NULL: none). Before a run's first point timed by this clock
     * as its first choice; a failure is the first point's to find again. */
    enum gb_status (*prime)(struct gb_gpu *g);
    /* Optional (NULL: none). Lets go of what the clock keeps open on `g`
     * from point to point that another user of the context needs (the
     * context's one range profiler, before counters are profiled); the
     * clock opens it again when next opened. */
    void (*set_aside)(struct gb_gpu *g);
    /* Optional (NULL: never). Nonzero when the clock keeps something open
     * on `g` from point to point: the open that made it is, like the GPU's
     * start, once a process (the harness counts it with the start). */
    int (*holds)(const struct gb_gpu *g);
    /* Optional (NULL: none). Frees the clock's state on a GPU
     * (gb_clock_state) when the GPU closes. */
    void (*release_state)(void *state);
};

/* A table of clocks: rows in the order auto tries them (rows[0] first). */
struct gb_clock_table {
    const struct gb_clock *rows;
    size_t n;
};

/* gpubound's clocks: the profiler (gpu__time_duration), CUPTI's kernel
 * timestamps, CUDA events. Static. */
const struct gb_clock_table *gb_clocks(void);

/* The row of the --timer choice `choice` (the row's place plus one) in
 * `tab`, or NULL: auto (GB_TIMER_AUTO) and a choice past the table are no
 * row. */
const struct gb_clock *gb_clock_find(const struct gb_clock_table *tab, int choice);

/* The --timer choice of the row `c` of `tab`: its place plus one;
 * GB_TIMER_AUTO when `c` is NULL or not a row of `tab`. */
int gb_clock_choice(const struct gb_clock_table *tab, const struct gb_clock *c);

/* The row of `tab` named `name`, or NULL (also for a NULL name). */
const struct gb_clock *gb_clock_named(const struct gb_clock_table *tab, const char *name);

/* The --timer choice named `name`: "auto" (GB_TIMER_AUTO) or a row's
 * name (gb_clock_choice of that row); -1 when no row has that name. */
int gb_clock_parse(const struct gb_clock_table *tab, const char *name);

/* The names gb_clock_parse takes, for messages: "auto", then the rows'
 * names in alphabetical order ("auto, cupti, events or profiler"); cut to
 * fit `n` bytes. */
void gb_clock_choices(const struct gb_clock_table *tab, char *buf, size_t n);

/* The clock `choice` tries first: auto (GB_TIMER_AUTO) the table's first
 * row, any other its own row; NULL when the table has none. */
const struct gb_clock *gb_clock_first(const struct gb_clock_table *tab, int choice);

/* The clock tried after `c`: its fallback's row, or NULL. */
const struct gb_clock *gb_clock_next(const struct gb_clock_table *tab, const struct gb_clock *c);

/* Opens the clock `c` into `t` with `flags`; when it cannot be had
 * (GB_ERR_UNSUPPORTED) and `choice` is auto, releases what it left and
 * tries its fallback, and so on down the table. *opened: the row of the
 * clock last tried (the open one on GB_OK). A clock the user named
 * (choice not auto) is that clock or a failure. GB_ERR_USAGE when c is
 * NULL. */
enum gb_status gb_clock_open(const struct gb_clock_table *tab, const struct gb_clock *c, int choice,
                             unsigned flags, struct gb_gpu *g, struct gb_timer *t,
                             const struct gb_clock **opened);

/* Whether a failure `st` of the samples of clock `c` lets the point go on
 * with the clock after it: a clock that cannot time a launch without a
 * kernel said it cannot time this one (GB_ERR_UNSUPPORTED), the user left
 * the choice to auto, and the clock has a fallback. */
int gb_clock_refused(const struct gb_clock_table *tab, const struct gb_clock *c, int choice, enum gb_status st);

/* Nonzero when any clock of the table holds something open on `g`. */
int gb_clocks_hold(const struct gb_clock_table *tab, const struct gb_gpu *g);

/* Every clock of the table sets aside what it keeps open on `g`. */
void gb_clocks_set_aside(const struct gb_clock_table *tab, struct gb_gpu *g);

/* The slot of `g` where the clock named `name` of gpubound's table keeps its
 * state from point to point (the clock owns what it puts there; its row's
 * release_state frees it when the GPU closes). `create`: make the GPU's
 * slots when it has none (NULL when out of memory); else NULL when none
 * were made. */
void **gb_clock_state(struct gb_gpu *g, const char *name, int create);

#endif
