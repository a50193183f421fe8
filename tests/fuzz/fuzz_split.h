/* fuzz_split.h - targets whose input is two files: the input is cut at the
 * first line "@@" (the separator seeds.sh puts between two committed
 * files); with no separator the second file is empty. */
#ifndef GB_FUZZ_SPLIT_H
#define GB_FUZZ_SPLIT_H

#include "fuzz_common.h"

static inline void fuzz_split(const uint8_t *data, size_t size, size_t *first, const uint8_t **second,
                              size_t *second_size)
{
    static const char sep[] = "\n@@\n";
    const uint8_t *p = NULL;
    for (size_t i = 0; i + 4 <= size && !p; i++)
        if (memcmp(data + i, sep, 4) == 0)
            p = data + i;
    *first = p ? (size_t)(p - data) : size;
    *second = p ? p + 4 : data + size;
    *second_size = p ? size - *first - 4 : 0;
}

#endif
