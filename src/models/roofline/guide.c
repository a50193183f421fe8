/* guide.c - the Programming Guide's arithmetic-rate table (guide.h). */
#include <string.h>

#include "gpubound/guide.h"

#define MUFU "mufu"

/* CUDA C++ Programming Guide, "Arithmetic Instructions", table "Throughput
 * of Native Arithmetic Instructions (Number of Results per Clock Cycle per
 * Multiprocessor)", columns 7.x (7.0 and 7.5 told apart by the table's
 * footnote for 64-bit floating point), 8.0, 8.6, 8.9 and 9.0. */
const int gb_tp_doc_cc[GB_TP_N_CC] = {70, 75, 80, 86, 89, 90};
const struct gb_tp_doc_row gb_tp_doc_rows[] = {
    {"fp32", "32-bit floating-point add, multiply, multiply-add", {64, 64, 64, 128, 128, 128}},
    {"fp64", "64-bit floating-point add, multiply, multiply-add", {32, 2, 32, 2, 2, 64}},
    /* Results: an f16x2 FMA gives two (the ceilings suite's hfma2). */
    {"fp16", "16-bit floating-point add, multiply, multiply-add", {128, 128, 256, 256, 128, 256}},
    {MUFU, "32-bit floating-point reciprocal, reciprocal square root, base-2 logarithm (__log2f), base 2 "
           "exponential (exp2f), sine (__sinf), cosine (__cosf)", {16, 16, 16, 16, 16, 16}},
    {"iadd", "32-bit integer add, extended-precision add, subtract, extended-precision subtract",
     {64, 64, 64, 64, 64, 64}},
    {"imul", "32-bit integer multiply, multiply-add, extended-precision multiply-add", {64, 64, 64, 64, 64, 64}},
    {"shift", "32-bit integer shift", {64, 64, 64, 64, 64, 64}},
    {"cmp", "compare, minimum, maximum", {64, 64, 64, 64, 64, 64}},
};
const int gb_tp_n_doc_rows = (int)(sizeof gb_tp_doc_rows / sizeof gb_tp_doc_rows[0]);

int gb_guide_rate(const char *key, int cc)
{
    for (int r = 0; r < gb_tp_n_doc_rows; r++) {
        if (strcmp(gb_tp_doc_rows[r].key, key) != 0)
            continue;
        for (int k = 0; k < GB_TP_N_CC; k++)
            if (gb_tp_doc_cc[k] == cc)
                return gb_tp_doc_rows[r].rate[k];
    }
    return 0;
}
