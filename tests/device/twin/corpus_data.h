/* corpus_data.h - the host side of the corpus twins (corpus_twin.py): the
 * inputs gpubound's spec benches hold, made on the host by the generator of
 * kernels/spec_data.h (the same formula gpubound's device fill applies), and
 * the verification rule, for a plain CUDA program that copies them up with
 * cudaMemcpy. Implemented in corpus_data.c, compiled by the host compiler
 * (not as CUDA: spec_data.h's host functions are plain C). */
#ifndef CORPUS_DATA_H
#define CORPUS_DATA_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* The element type named `name` (a spec's "type" or its alias): its id in
 * spec_data.h's table, or -1. */
int twin_type_id(const char *name);
/* Bytes an element of type `id` takes. */
int twin_type_size(int id);
/* The default rtol and atol of an output of type `id`. */
void twin_type_tol(int id, double *rtol, double *atol);
/* Fills n elements: init 1 random [a, b], 2 constant a, 3 iota from a by b,
 * of stream `key` (gb_sd_stream of the run's seed, the problem, the arg);
 * on every core (OpenMP). */
void twin_fill(void *p, uint64_t n, int type, int init, double a, double b, uint64_t key);
/* Poisons n elements as gpubound does: all-ones bytes for floating types,
 * 0xA5 bytes for integers. */
void twin_poison(void *p, uint64_t n, int type);
/* Reads exactly `bytes` bytes of `path` into p; 0 when done, -1 else. */
int twin_read_file(const char *path, void *p, size_t bytes);
/* The elements of got that do not match exp (gb_sd_match); *first the first
 * such index; *g and *e its values. */
uint64_t twin_compare(const void *got, const void *exp, uint64_t n, int type, double rtol, double atol,
                      uint64_t *first, double *g, double *e);
/* A 64-bit checksum of the bytes (for the log: equal inputs, equal sums). */
uint64_t twin_checksum(const void *p, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
