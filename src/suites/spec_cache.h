/* spec_cache.h - the problems of kernel spec benches kept on the device:
 * per problem (a bench and the values of its problem axes) its inputs, the
 * buffers its outputs are written to, the initial contents of outputs with
 * an init, and the reference outputs, made once and kept for every
 * configuration of the problem, within a memory budget, the least recently
 * used problem evicted first.
 *
 * The cache itself knows nothing of CUDA beyond CUdeviceptr: it allocates
 * through the hooks it is given (the device's allocator, or a test's). */
#ifndef GB_SPEC_CACHE_H
#define GB_SPEC_CACHE_H

#include <stddef.h>

#include "gpubound/gpu.h"
#include "gpubound/spec.h"

#define GB_SPEC_PROBLEM_KEY 512

/* What a problem holds for each argument: bytes of its buffer (0: a
 * scalar, or nothing), and whether it needs an initial copy and a
 * reference buffer. */
struct gb_spec_need {
    size_t bytes[GB_SPEC_MAX_ARGS];
    int buffer[GB_SPEC_MAX_ARGS];  /* a device buffer (even of 0 bytes: 16 are allocated) */
    int init[GB_SPEC_MAX_ARGS];    /* an output with an init */
    int ref[GB_SPEC_MAX_ARGS];     /* an output */
};

/* One problem's buffers. */
struct gb_spec_problem {
    unsigned long bench;         /* the bench's cache id (gb_spec_cache_id) */
    char key[GB_SPEC_PROBLEM_KEY];  /* the problem axes' values, "n=512 m=64" */
    struct gb_spec_need need;
    size_t held;                 /* device bytes */
    CUdeviceptr data[GB_SPEC_MAX_ARGS];  /* inputs: their values; outputs: what the kernel writes */
    CUdeviceptr init[GB_SPEC_MAX_ARGS];  /* outputs with an init: their initial contents */
    CUdeviceptr ref[GB_SPEC_MAX_ARGS];   /* outputs: the expected values */
    int made;                    /* the inputs are filled */
    int ref_made;                /* the reference is in ref[] */
    int in_use;                  /* a point holds it: never evicted */
    unsigned long long used;     /* the cache's clock at its last use */
    struct gb_spec_problem *next;
};

struct gb_spec_cache {
    size_t budget;               /* bytes the kept problems may hold */
    size_t held;
    unsigned long long clock;
    int made, evicted;           /* problems made and evicted */
    struct gb_spec_problem *list;
    /* The allocator: GB_ERR_DEVICE_OOM when the device is full. */
    enum gb_status (*alloc)(void *ctx, size_t bytes, CUdeviceptr *out);
    void (*free)(void *ctx, CUdeviceptr p);
    void *ctx;
};

/* A new id for a bench (never 0, never reused in a process). */
unsigned long gb_spec_cache_new_id(void);

/* The budget for a device with `free_bytes` free at the start of a run:
 * half of it, so that the points' own allocations and the reference
 * kernels' scratch keep the other half. */
size_t gb_spec_cache_budget(size_t free_bytes);

/* The problem `key` of bench `bench` with the buffers of `need`: the kept
 * one when its sizes are those of `need` (*fresh = 0), else a new one with
 * unfilled buffers (*fresh = 1; a kept one of other sizes is dropped
 * first). Before it is made, least recently used problems not in use are
 * evicted until it fits the budget; an allocation the device refuses
 * evicts more and tries again. GB_ERR_DEVICE_OOM with what was needed when
 * nothing is left to evict. The problem is in use until gb_spec_cache_done. */
enum gb_status gb_spec_cache_get(struct gb_spec_cache *c, unsigned long bench, const char *key,
                                 const struct gb_spec_need *need, struct gb_spec_problem **out, int *fresh);

/* The kept problem `key` of bench `bench`, or NULL (its use not recorded). */
struct gb_spec_problem *gb_spec_cache_find(struct gb_spec_cache *c, unsigned long bench, const char *key);

/* The point is done with the problem. */
void gb_spec_cache_done(struct gb_spec_problem *p);

/* Drops one problem (a failed fill leaves it half made). */
void gb_spec_cache_drop(struct gb_spec_cache *c, struct gb_spec_problem *p);

/* Frees every problem. */
void gb_spec_cache_clear(struct gb_spec_cache *c);

#endif
