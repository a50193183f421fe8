/* camp_counts.c - width classes and the metric names of camping records
 * (include/gpubound/camp_counts.h). */
#include <stddef.h>

#include "gpubound/camp_counts.h"

static const char *const gb_camp_req_names[2][GB_CAMP_N_WIDTHS] = {
    {"ld_req_1", "ld_req_2", "ld_req_4", "ld_req_8", "ld_req_16"},
    {"st_req_1", "st_req_2", "st_req_4", "st_req_8", "st_req_16"},
};

int gb_camp_width_class(int width_bytes)
{
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        if (width_bytes == 1 << c)
            return c;
    return -1;
}

int gb_camp_class_width(int c)
{
    return 1 << c;
}

const char *gb_camp_req_metric(int is_store, int wclass)
{
    if (wclass < 0 || wclass >= GB_CAMP_N_WIDTHS)
        return NULL;
    return gb_camp_req_names[is_store ? 1 : 0][wclass];
}

const char *gb_camp_sectors_metric(int is_store)
{
    return is_store ? GB_CAMP_METRIC_ST_SECTORS : GB_CAMP_METRIC_LD_SECTORS;
}
