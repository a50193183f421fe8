/* guide.h - the CUDA C++ Programming Guide's documented arithmetic rates:
 * facts about the hardware that the throughput suite checks its
 * measurements against and the roofline uses as guide figures where no
 * ceilings run was recorded. Pure data, no GPU.
 */
#ifndef GB_GUIDE_H
#define GB_GUIDE_H

#include "gpubound/api.h"

/* Documented operations per clock cycle per multiprocessor, from the table
 * "Throughput of Native Arithmetic Instructions" of the CUDA C++
 * Programming Guide (section "Arithmetic Instructions"), for the compute
 * capabilities of gb_tp_doc_cc. */
#define GB_TP_N_CC 6
extern const int gb_tp_doc_cc[GB_TP_N_CC];   /* 70, 75, 80, 86, 89, 90 */
struct gb_tp_doc_row {
    const char *key;
    const char *what;        /* the row's title in the guide */
    int rate[GB_TP_N_CC];
};
extern GB_API const struct gb_tp_doc_row gb_tp_doc_rows[];
extern const int gb_tp_n_doc_rows;

/* The documented rate (results per clock per multiprocessor) of the row
 * named `key` on compute capability `cc` (10 * major + minor), or 0 when
 * the guide gives none (no such row, or a compute capability outside
 * gb_tp_doc_cc). */
GB_API int gb_guide_rate(const char *key, int cc);

#endif
