/* fuzz_fleet.c - libFuzzer target: a fleet run. The input is its run.json
 * (with the "fleet" section of members) and, after a line "@@", its
 * results.json; the run is loaded, its members loaded and checked against
 * the records, and the fleet analysed and tabled as `gpubound fleet` does. */
#include "fuzz_split.h"

#include "gpubound/fleet.h"
#include "gpubound/fleet_records.h"
#include "gpubound/fleet_tables.h"
#include "gpubound/results.h"
#include "gpubound/table.h"

static void tables(const struct gb_fleet_report *r)
{
    enum gb_status (*const fns[])(const struct gb_fleet_report *, struct gb_table **) = {
        gb_fleet_wide_table, gb_fleet_long_table, gb_fleet_suite_table, gb_fleet_summary_table};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        struct gb_table *t = NULL;
        if (fns[i](r, &t) == GB_OK)
            gb_table_free(t);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n_info, n_rec, n = 0;
    const uint8_t *rec;
    struct gb_run *run = NULL;
    struct gb_fleet_member *members = NULL;
    struct gb_fleet_report rep;
    memset(&rep, 0, sizeof rep);
    fuzz_split(data, size, &n_info, &rec, &n_rec);
    fuzz_write("run.json", data, n_info);
    fuzz_write("results.json", rec, n_rec);
    if (gb_run_load(fuzz_dir(), &run) != GB_OK)
        return 0;
    if (gb_fleet_members_load(fuzz_dir(), &members, &n) == GB_OK &&
        gb_fleet_members_check(run, members, n) == GB_OK) {
        if (gb_fleet_analyze(run, members, n, &rep) == GB_OK)
            tables(&rep);
        members = NULL; /* the report took them, also on error */
    }
    free(members);
    gb_fleet_report_release(&rep);
    gb_run_free(run);
    return 0;
}
