/* fleet_run.h - measuring one member of a fleet run on this host
 * (src/measure/fleet_run.c) and the MPI job the members belong to, opened
 * at run time (src/measure/fleet_mpi.c). What a member sends and how the
 * run is gathered: fleet_records.h. Nothing here prints or exits.
 */
#ifndef GPUBOUND_FLEET_RUN_H
#define GPUBOUND_FLEET_RUN_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/fleet_records.h"
#include "gpubound/measure.h"
#include "gpubound/session.h"

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
GB_API enum gb_status gb_fleet_member_run(const struct gb_plan *plan, const struct gb_fleet_member_opts *o,
                                   struct gb_fleet_part *out);

/* The rank of this process on its host from the launcher's environment
 * (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, MPI_LOCALRANKID,
 * PMI_LOCAL_RANK), or -1 when none is set. */
GB_API int gb_fleet_env_local_rank(void);

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
GB_API int gb_mpi_launched(char *launcher, size_t n);

/* Joins the job: loads libmpi (GB_MPI_LIB names another file), calls
 * MPI_Init, reads rank and size, and checks them against the launcher's
 * own count (srun's tasks started as singletons say so). GB_ERR_USAGE with
 * what to install or how to launch; nothing is held on error. */
GB_API enum gb_status gb_mpi_open(struct gb_mpi *w);

/* Broadcasts *v from rank 0 to every rank. */
GB_API enum gb_status gb_mpi_bcast_int(struct gb_mpi *w, int *v);

/* Gathers every rank's `len` bytes at rank 0: there *all (malloc'ed, the
 * parts one after another) and *lens (malloc'ed, w->size entries); other
 * ranks get NULLs. A job of one copies. The total must stay under 2 GiB. */
GB_API enum gb_status gb_mpi_gather(struct gb_mpi *w, const char *buf, size_t len, char **all, size_t **lens);

/* MPI_Finalize when the job was joined; safe to call twice. */
GB_API void gb_mpi_close(struct gb_mpi *w);

#endif
