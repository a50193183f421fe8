/* fleet_records.h - the records of a fleet run: one plan measured on many
 * GPUs at once (the ranks of an MPI job, or every GPU of one host),
 * gathered into one run directory.
 *
 * A fleet run directory is an ordinary run directory (results.h) whose
 * records carry fleet = 1 with their rank, host and GPU UUID, and whose
 * run.json has a "fleet" section listing every member (rank): its host,
 * its state (ok, no-gpu, failed) with the reason, and its own run metadata
 * (GPU name, UUID, PCI bus id, clocks, driver). docs/fleet.md describes
 * the format, the launchers and the outlier rule.
 *
 * The fleet by job: its members, parts and their JSON here (src/results/
 * fleet.c); measuring one member and MPI in fleet_run.h (measure/); the
 * outlier rule in fleet.h (models/); the tables and chart in
 * fleet_tables.h (report/). Nothing here prints or exits.
 */
#ifndef GPUBOUND_FLEET_RECORDS_H
#define GPUBOUND_FLEET_RECORDS_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/results.h"

/* Members of one fleet run, at most. */
#define GB_FLEET_MAX_MEMBERS 65536

enum gb_fleet_state {
    GB_FLEET_OK = 0,     /* every planned point was measured (some may have failed) */
    GB_FLEET_NO_GPU,     /* the member's GPU could not be opened: no records */
    GB_FLEET_FAILED,     /* stopped early (a faulted device, a write error, a lost process) */
};

/* The state's name in run.json ("ok", "no-gpu", "failed") and back (-1). */
GB_API const char *gb_fleet_state_name(enum gb_fleet_state s);
GB_API int gb_fleet_state_parse(const char *s);

/* One member of a fleet: who it was and how its part of the run went. */
struct gb_fleet_member {
    int rank;                    /* MPI rank; the device's place with --all-devices */
    int local_rank;              /* rank on its host (picks the GPU); -1 unknown */
    char host[128];
    enum gb_fleet_state state;
    char reason[512];            /* why not ok; "" when ok */
    int exit_code;               /* what the member's process exited with (0, 1, 2, 3) */
    /* The member's own run metadata: start and finish, counts and times,
     * driver release, and (has_device) the GPU: name, UUID, PCI bus id,
     * clocks, driver version. */
    struct gb_run_info info;
};

/* What one member sends to the gathering rank: its member entry and its
 * records (fleet fields not yet set; owned). */
struct gb_fleet_part {
    struct gb_fleet_member m;
    struct gb_record *records;
    size_t n_records;
};

/* Frees the part's records and zeroes it. Safe on a zeroed part and NULL. */
GB_API void gb_fleet_part_release(struct gb_fleet_part *p);

/* ---- parts as text (src/results/fleet.c) ---- */

/* Serializes `p` as one JSON document in *text (malloc'ed, NUL-terminated,
 * *len bytes without the NUL). GB_ERR_NOMEM. */
GB_API enum gb_status gb_fleet_part_to_text(const struct gb_fleet_part *p, char **text, size_t *len);

/* Reads a part written by gb_fleet_part_to_text; `what` names it in
 * messages ("rank 3"). Every number is range-checked as in a run
 * directory. GB_ERR_FORMAT with one line; on error *p is zeroed. */
GB_API enum gb_status gb_fleet_part_from_text(const char *text, size_t len, const char *what,
                                       struct gb_fleet_part *p);

/* ---- the gathered run (src/results/fleet.c) ---- */

struct gb_fleet_write_opts {
    const char *command_line;    /* the command as the user gave it */
    const char *mode;            /* "quick" or "full" */
    const char *const *axes;     /* the CSV's axis columns (the plan's union) */
    int n_axes;
    /* Called with the staging directory before the run is committed, to
     * add files of the caller's (the run's chart specs); may be NULL. */
    enum gb_status (*extra)(void *ctx, const char *staging_dir);
    void *ctx;
};

/* Writes the gathered run into `dir` (prepared by gb_run_dir_prepare):
 * every part's records, in member order, with fleet, fleet_rank,
 * fleet_host and gpu_uuid set from the member; results.csv with rank,
 * host and gpu_uuid columns before the axes; run.json with the members
 * (the "fleet" section), the counts and times summed, complete when every
 * member is ok, and the device of the first member that had one. The
 * files are staged and moved in together: nothing half-written. Ranks must
 * be distinct. GB_ERR_USAGE (duplicate ranks), GB_ERR_IO, GB_ERR_NOMEM. */
GB_API enum gb_status gb_fleet_write(const char *dir, const struct gb_fleet_part *parts, size_t n,
                              const struct gb_fleet_write_opts *o);

/* The members listed in `dir`/run.json's "fleet" section, in rank order,
 * into *out (malloc'ed; free()). GB_ERR_FORMAT with one line when the
 * section is malformed, its size is not the number of members listed, or
 * it is absent (then the run is not a fleet run: the
 * message says so), GB_ERR_IO when run.json cannot be read. */
GB_API enum gb_status gb_fleet_members_load(const char *dir, struct gb_fleet_member **out, size_t *n);

/* Whether the records of `run` agree with its members m[0..n) (in rank
 * order, from gb_fleet_members_load): every record carries a fleet rank
 * that is a member, and the GPU UUID and host of that member. GB_ERR_FORMAT
 * with one line naming the record and field that contradict run.json. */
GB_API enum gb_status gb_fleet_members_check(const struct gb_run *run, const struct gb_fleet_member *m, size_t n);

#endif
