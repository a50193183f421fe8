/* fleet.h - fleet runs: one plan measured on many GPUs at once (the ranks
 * of an MPI job, or every GPU of one host), gathered into one run
 * directory, and the statistics that say which GPU is not like the others.
 *
 * A fleet run directory is an ordinary run directory (results.h) whose
 * records carry fleet = 1 with their rank, host and GPU UUID, and whose
 * run.json has a "fleet" section listing every member (rank): its host,
 * its state (ok, no-gpu, failed) with the reason, and its own run metadata
 * (GPU name, UUID, PCI bus id, clocks, driver). docs/fleet.md describes
 * the format, the launchers and the outlier rule.
 *
 * Layers: the member and part data and their JSON (src/results/fleet.c);
 * measuring one member (src/measure/fleet_run.c) and MPI opened at run
 * time (src/measure/fleet_mpi.c); the statistics (src/models/fleet.c);
 * the table and chart (src/report/fleet.c). Nothing here prints or exits.
 */
#ifndef GPUBOUND_FLEET_H
#define GPUBOUND_FLEET_H

#include <stddef.h>

#include "gpubound/measure.h"
#include "gpubound/plot.h"
#include "gpubound/results.h"
#include "gpubound/session.h"
#include "gpubound/table.h"

/* Members of one fleet run, at most. */
#define GB_FLEET_MAX_MEMBERS 65536

enum gb_fleet_state {
    GB_FLEET_OK = 0,     /* every planned point was measured (some may have failed) */
    GB_FLEET_NO_GPU,     /* the member's GPU could not be opened: no records */
    GB_FLEET_FAILED,     /* stopped early (a faulted device, a write error, a lost process) */
};

/* The state's name in run.json ("ok", "no-gpu", "failed") and back (-1). */
const char *gb_fleet_state_name(enum gb_fleet_state s);
int gb_fleet_state_parse(const char *s);

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
void gb_fleet_part_release(struct gb_fleet_part *p);

/* ---- parts as text (src/results/fleet.c) ---- */

/* Serializes `p` as one JSON document in *text (malloc'ed, NUL-terminated,
 * *len bytes without the NUL). GB_ERR_NOMEM. */
enum gb_status gb_fleet_part_to_text(const struct gb_fleet_part *p, char **text, size_t *len);

/* Reads a part written by gb_fleet_part_to_text; `what` names it in
 * messages ("rank 3"). Every number is range-checked as in a run
 * directory. GB_ERR_FORMAT with one line; on error *p is zeroed. */
enum gb_status gb_fleet_part_from_text(const char *text, size_t len, const char *what,
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
enum gb_status gb_fleet_write(const char *dir, const struct gb_fleet_part *parts, size_t n,
                              const struct gb_fleet_write_opts *o);

/* The members listed in `dir`/run.json's "fleet" section, in rank order,
 * into *out (malloc'ed; free()). GB_ERR_FORMAT with one line when the
 * section is malformed, its size is not the number of members listed, or
 * it is absent (then the run is not a fleet run: the
 * message says so), GB_ERR_IO when run.json cannot be read. */
enum gb_status gb_fleet_members_load(const char *dir, struct gb_fleet_member **out, size_t *n);

/* Whether the records of `run` agree with its members m[0..n) (in rank
 * order, from gb_fleet_members_load): every record carries a fleet rank
 * that is a member, and the GPU UUID and host of that member. GB_ERR_FORMAT
 * with one line naming the record and field that contradict run.json. */
enum gb_status gb_fleet_members_check(const struct gb_run *run, const struct gb_fleet_member *m, size_t n);

/* ---- measuring one member (src/measure/fleet_run.c) ---- */

struct gb_fleet_member_opts {
    int rank, local_rank;
    int device;                  /* GPU ordinal; -1: local_rank modulo the GPUs there are */
    const char *command_line;
    int quick;
    struct gb_measure_opts measure;
    const struct gb_session_hooks *hooks; /* progress; NULL for none */
};

/* Measures `plan` on one GPU of this host as a fleet member: picks the
 * GPU, runs the session into a private temporary directory, reads the run
 * back into `out` and removes the directory. Never fails for the GPU's
 * sake: a GPU that cannot be opened, a faulted device or an interruption
 * are recorded in out->m (state, reason) with the records measured before.
 * `out->m.exit_code` is left 0; the caller sets it. Returns GB_ERR_NOMEM
 * or GB_ERR_IO only when the part itself cannot be made. */
enum gb_status gb_fleet_member_run(const struct gb_plan *plan, const struct gb_fleet_member_opts *o,
                                   struct gb_fleet_part *out);

/* The rank of this process on its host from the launcher's environment
 * (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, MPI_LOCALRANKID,
 * PMI_LOCAL_RANK), or -1 when none is set. */
int gb_fleet_env_local_rank(void);

/* ---- MPI, opened at run time (src/measure/fleet_mpi.c) ---- */

/* The MPI job this process belongs to. Open MPI's libmpi.so.40 is opened
 * with dlopen only when a launcher started the process; without one the
 * process is a job of its own (rank 0 of 1) and MPI is never loaded. */
struct gb_mpi {
    int active;                  /* MPI was loaded and initialized */
    int rank, size;
    char launcher[32];           /* "mpirun", "srun" or "" */
};

/* Whether the environment says that an MPI launcher (mpirun, srun)
 * started this process; `launcher` (may be NULL) gets its name. */
int gb_mpi_launched(char *launcher, size_t n);

/* Joins the job: loads libmpi (GB_MPI_LIB names another file), calls
 * MPI_Init, reads rank and size, and checks them against the launcher's
 * own count (srun's tasks started as singletons say so). GB_ERR_USAGE with
 * what to install or how to launch; nothing is held on error. */
enum gb_status gb_mpi_open(struct gb_mpi *w);

/* Broadcasts *v from rank 0 to every rank. */
enum gb_status gb_mpi_bcast_int(struct gb_mpi *w, int *v);

/* Gathers every rank's `len` bytes at rank 0: there *all (malloc'ed, the
 * parts one after another) and *lens (malloc'ed, w->size entries); other
 * ranks get NULLs. A job of one copies. The total must stay under 2 GiB. */
enum gb_status gb_mpi_gather(struct gb_mpi *w, const char *buf, size_t len, char **all, size_t **lens);

/* MPI_Finalize when the job was joined; safe to call twice. */
void gb_mpi_close(struct gb_mpi *w);

/* ---- the statistics (src/models/fleet.c) ---- */

/* The outlier rule (docs/fleet.md): a member is an outlier at a point when
 * its median differs from the fleet median M by more than both
 *   - its own 95% interval (M lies outside [ci_lo, ci_hi]), and
 *   - GB_FLEET_Z robust standard deviations, the robust standard deviation
 *     being 1.4826 x the median absolute deviation of the members' medians
 *     (Iglewicz and Hoaglin's modified z-score > 3.5); when that MAD is 0,
 *     1.2533 x the mean absolute deviation is used instead, and when both
 *     are 0 nothing is flagged;
 * and at least GB_FLEET_MIN_MEMBERS members measured the point (with two,
 * neither can be told to be the odd one). */
#define GB_FLEET_Z 3.5
#define GB_FLEET_MIN_MEMBERS 3

/* One member's value at one point, in and out. */
struct gb_fleet_cell {
    int present;                 /* in: the member measured the point (status ok) */
    double median, lo, hi;       /* in: median time and its 95% interval, ns */
    double ratio, ratio_lo, ratio_hi; /* out: median / M, and the interval / M */
    double z;                    /* out: (median - M) / robust sd; NAN when it is 0 */
    int flag;                    /* out: +1 slow outlier, -1 fast outlier, 0 none */
};

/* Fills the outputs of `n` cells and *fleet_median, *robust_sd (NAN when
 * fewer than one cell is present). Pure; no allocation beyond a scratch
 * array. GB_ERR_NOMEM. */
enum gb_status gb_fleet_point_stats(struct gb_fleet_cell *cells, size_t n, double *fleet_median,
                                    double *robust_sd);

/* One point of a fleet run with every member's cell. */
struct gb_fleet_point {
    char label[256];             /* "suite/bench axis=value ... (cold)" */
    size_t first;                /* index of the first record of the point */
    char suite[64];              /* the record's suite */
    double fleet_median, robust_sd;
    int n_present;
    double spread;               /* max/min of the present medians; NAN with fewer than two */
    int apart;                   /* some two present members' 95% intervals do not overlap */
    struct gb_fleet_cell *cells; /* one per member, in member order */
    int *status;                 /* per member: the record's status, -1 when it has none */
};

/* One member's summary over every point. */
struct gb_fleet_summary {
    int measured, failed, missing; /* points with a measured record, another status, none */
    int slow, fast;              /* points where it is flagged */
    double geo_ratio;            /* geometric mean of its ratios; NAN with none */
    double min_ratio, max_ratio;
    size_t worst;                /* the point of its largest |z| (valid when measured) */
    int shares_gpu_with;         /* rank of an earlier member on the same GPU UUID, -1 none */
};

/* One suite's spread between the members, over its points that at least
 * two members measured. */
struct gb_fleet_suite {
    char suite[64];
    int points;                  /* points measured by two members or more */
    int apart;                   /* of those, points whose spread exceeds the intervals */
    int flagged;                 /* of those, points with an outlier */
    double spread_median;        /* median over the points of max/min of the medians */
    double spread_max;           /* the largest, at point `widest` */
    size_t widest;
};

struct gb_fleet_report {
    struct gb_fleet_member *members; /* owned */
    size_t n_members;
    struct gb_fleet_point *points;
    size_t n_points;
    struct gb_fleet_summary *summary; /* one per member */
    struct gb_fleet_suite *suites;   /* in the order of their first point */
    size_t n_suites;
};

/* Groups the records of `run` by point (suite, bench, cache, axes) and by
 * member (fleet_rank matched to `members`), and computes every point's
 * statistics and every member's summary. Takes `members` (n of them,
 * malloc'ed) into the report, also on error. Records without a fleet rank
 * listed among the members are refused: GB_ERR_FORMAT. GB_ERR_NOMEM.
 * Release with gb_fleet_report_release. */
enum gb_status gb_fleet_analyze(const struct gb_run *run, struct gb_fleet_member *members,
                                size_t n, struct gb_fleet_report *out);
void gb_fleet_report_release(struct gb_fleet_report *r);

/* ---- tables and chart (src/report/fleet.c) ---- */

/* The points side by side: one row per point, its fleet median (µs) and
 * max/min of the medians, then per member its median (µs) and ratio to
 * the fleet median, "*" marking an outlier. */
enum gb_status gb_fleet_wide_table(const struct gb_fleet_report *r, struct gb_table **out);

/* One row per point and member (CSV and JSON): point, rank, host,
 * gpu_uuid, status, median and interval (ns), fleet median, ratio and its
 * interval, robust z, outlier ("slow", "fast" or ""). */
enum gb_status gb_fleet_long_table(const struct gb_fleet_report *r, struct gb_table **out);

/* One row per suite: points compared, max/min of the medians (median and
 * largest, with that point), points whose spread exceeds the members' own
 * intervals, points with an outlier. */
enum gb_status gb_fleet_suite_table(const struct gb_fleet_report *r, struct gb_table **out);

/* One row per member: rank, host, GPU, state, points measured and failed,
 * geometric-mean ratio, range, outlier counts, and a verdict. */
enum gb_status gb_fleet_summary_table(const struct gb_fleet_report *r, struct gb_table **out);

/* Draws the fleet charts into `out_dir` (must exist) as .gp/.svg/.png.
 * Up to GB_FLEET_BAR_POINTS points: one chart, <stem>, with one bar per
 * point and member, the member's median over the fleet median with that
 * ratio's 95% interval, and a dashed line at 1. More points: one chart
 * per suite, <stem>-<suite>, with per member its ratios at the suite's
 * points sorted, against the share of the points (a flat line at 1 is a
 * GPU like the fleet; the interval of each ratio is drawn). Files go to
 * res as gb_plot_draw says. GB_ERR_USAGE when nothing was measured. */
#define GB_FLEET_BAR_POINTS 40
enum gb_status gb_fleet_chart(const struct gb_fleet_report *r, const char *out_dir, const char *stem,
                              int formats, struct gb_report_result *res);

#endif
