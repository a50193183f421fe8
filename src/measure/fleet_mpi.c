/* fleet_mpi.c - the few MPI calls a fleet run needs, with Open MPI opened
 * at run time (gpubound/fleet_run.h), so that gpubound neither links nor
 * needs MPI where it is not used.
 *
 * Open MPI's ABI: every handle (communicator, datatype) is a pointer to a
 * predefined object the library exports: MPI_COMM_WORLD is
 * &ompi_mpi_comm_world, MPI_BYTE is &ompi_mpi_byte, MPI_INT &ompi_mpi_int;
 * dlsym returns exactly those addresses. MPI_SUCCESS is 0. MPICH and its
 * derivatives use integer handles instead: a library without
 * ompi_mpi_comm_world is refused rather than misused. The library is
 * opened RTLD_GLOBAL because Open MPI's own plugins resolve its symbols. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/fleet_run.h"

typedef void *gb_mpi_handle; /* MPI_Comm, MPI_Datatype: pointers in Open MPI */

static struct {
    void *lib;
    gb_mpi_handle comm_world, byte, integer;
    int (*init)(int *, char ***);
    int (*initialized)(int *);
    int (*finalize)(void);
    int (*finalized)(int *);
    int (*comm_rank)(gb_mpi_handle, int *);
    int (*comm_size)(gb_mpi_handle, int *);
    int (*gather)(const void *, int, gb_mpi_handle, void *, int, gb_mpi_handle, int, gb_mpi_handle);
    int (*gatherv)(const void *, int, gb_mpi_handle, void *, const int *, const int *, gb_mpi_handle, int,
                   gb_mpi_handle);
    int (*bcast)(void *, int, gb_mpi_handle, int, gb_mpi_handle);
} mpi;

/* The launcher's own idea of the job's size, or 0. */
static int gb_env_size(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "SLURM_NTASKS",
                                       "SLURM_NPROCS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 0)
            return atoi(v);
    }
    return 0;
}

int gb_mpi_launched(char *launcher, size_t n)
{
    const char *name = getenv("OMPI_COMM_WORLD_RANK") || getenv("PMIX_RANK") ? "mpirun"
                       : getenv("SLURM_PROCID") && getenv("SLURM_STEP_ID") ? "srun"
                       : getenv("PMI_RANK") ? "mpirun"
                                            : NULL;
    if (launcher && n)
        snprintf(launcher, n, "%s", name ? name : "");
    return name != NULL;
}

int gb_fleet_env_local_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID",
                                       "PMI_LOCAL_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long r = v ? strtol(v, &end, 10) : -1;
        if (v && *v && !*end && r >= 0 && r < INT_MAX)
            return (int)r;
    }
    return -1;
}

/* Every symbol, or the name of the first missing one. */
static const char *gb_mpi_symbols(void)
{
#define GB_SYM(field, name)                                   \
    do {                                                      \
        if (!(*(void **)&mpi.field = dlsym(mpi.lib, name)))   \
            return name;                                      \
    } while (0)
    GB_SYM(comm_world, "ompi_mpi_comm_world");
    GB_SYM(byte, "ompi_mpi_byte");
    GB_SYM(integer, "ompi_mpi_int");
    GB_SYM(init, "MPI_Init");
    GB_SYM(initialized, "MPI_Initialized");
    GB_SYM(finalize, "MPI_Finalize");
    GB_SYM(finalized, "MPI_Finalized");
    GB_SYM(comm_rank, "MPI_Comm_rank");
    GB_SYM(comm_size, "MPI_Comm_size");
    GB_SYM(gather, "MPI_Gather");
    GB_SYM(gatherv, "MPI_Gatherv");
    GB_SYM(bcast, "MPI_Bcast");
#undef GB_SYM
    return NULL;
}

static enum gb_status gb_mpi_load(void)
{
    const char *env = getenv("GB_MPI_LIB");
    const char *names[] = {env && *env ? env : "libmpi.so.40", "libmpi.so"};
    char first[512] = "";
    if (mpi.lib)
        return GB_OK;
    for (size_t i = 0; i < 2 && !mpi.lib; i++) {
        mpi.lib = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
        if (!mpi.lib && !first[0])
            snprintf(first, sizeof first, "%s", dlerror());
    }
    if (!mpi.lib)
        return gb_error_set(GB_ERR_USAGE, "--fleet under a launcher needs Open MPI's libmpi.so.40 (%s): "
                            "install Open MPI (Debian: openmpi-bin) or set LD_LIBRARY_PATH or GB_MPI_LIB",
                            first);
    const char *missing = gb_mpi_symbols();
    if (missing) {
        dlclose(mpi.lib);
        mpi.lib = NULL;
        return gb_error_set(GB_ERR_USAGE, "the MPI library has no %s: gpubound speaks Open MPI's ABI only "
                            "(MPICH and its derivatives are not supported)", missing);
    }
    return GB_OK;
}

enum gb_status gb_mpi_open(struct gb_mpi *w)
{
    int flag = 0;
    memset(w, 0, sizeof *w);
    w->size = 1;
    if (!gb_mpi_launched(w->launcher, sizeof w->launcher))
        return GB_OK; /* a job of one, without MPI */
    enum gb_status st = gb_mpi_load();
    if (st != GB_OK)
        return st;
    if (mpi.initialized(&flag) != 0 || (!flag && mpi.init(NULL, NULL) != 0))
        return gb_error_set(GB_ERR_USAGE, "MPI_Init failed under %s", w->launcher);
    w->active = 1;
    if (mpi.comm_rank(mpi.comm_world, &w->rank) != 0 || mpi.comm_size(mpi.comm_world, &w->size) != 0) {
        gb_mpi_close(w);
        return gb_error_set(GB_ERR_USAGE, "MPI_Comm_rank/MPI_Comm_size failed");
    }
    int want = gb_env_size();
    if (want > 1 && w->size != want) {
        int size = w->size;
        gb_mpi_close(w);
        return gb_error_set(GB_ERR_USAGE, "%s started %d tasks but MPI sees a job of %d: each task "
                            "started alone (with srun, give --mpi=pmix or the MPI plugin your Open MPI "
                            "was built for)", w->launcher[0] ? w->launcher : "the launcher", want, size);
    }
    return GB_OK;
}

enum gb_status gb_mpi_bcast_int(struct gb_mpi *w, int *v)
{
    if (!w->active)
        return GB_OK;
    return mpi.bcast(v, 1, mpi.integer, 0, mpi.comm_world) == 0
               ? GB_OK : gb_error_set(GB_ERR_IO, "MPI_Bcast failed");
}

/* A job of one: a copy of its own bytes. */
static enum gb_status gb_gather_self(const char *buf, size_t len, char **all, size_t **lens)
{
    *all = malloc(len + 1);
    *lens = malloc(sizeof **lens);
    if (!*all || !*lens) {
        free(*all);
        free(*lens);
        *all = NULL, *lens = NULL;
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    memcpy(*all, buf, len);
    (*lens)[0] = len;
    return GB_OK;
}

/* The byte counts of every rank at rank 0 (others: NULL). */
static enum gb_status gb_gather_counts(struct gb_mpi *w, int len, int **counts)
{
    *counts = NULL;
    if (w->rank == 0 && !(*counts = calloc((size_t)w->size, sizeof **counts)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if (mpi.gather(&len, 1, mpi.integer, *counts, 1, mpi.integer, 0, mpi.comm_world) != 0) {
        free(*counts);
        *counts = NULL;
        return gb_error_set(GB_ERR_IO, "MPI_Gather of the parts' sizes failed");
    }
    return GB_OK;
}

enum gb_status gb_mpi_gather(struct gb_mpi *w, const char *buf, size_t len, char **all, size_t **lens)
{
    int *counts = NULL, *displs = NULL;
    enum gb_status st;
    *all = NULL;
    *lens = NULL;
    if (!w->active)
        return gb_gather_self(buf, len, all, lens);
    /* A part too large for an int count is sent as nothing: rank 0 then
     * records that rank as lost, and the collective stays matched. */
    int n = len < INT_MAX / 2 ? (int)len : 0;
    if ((st = gb_gather_counts(w, n, &counts)) != GB_OK)
        return st;
    long long total = 0;
    if (w->rank == 0) {
        if (!(displs = calloc((size_t)w->size, sizeof *displs)) ||
            !(*lens = calloc((size_t)w->size, sizeof **lens))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out; /* the other ranks stay in Gatherv: MPI aborts the job when this one exits */
        }
        for (int r = 0; r < w->size; r++) {
            displs[r] = (int)total;
            (*lens)[r] = (size_t)counts[r];
            total += counts[r];
            if (total >= INT_MAX) {
                st = gb_error_set(GB_ERR_USAGE, "the ranks' records come to over 2 GiB: gather fewer points");
                goto out;
            }
        }
        if (!(*all = malloc((size_t)total + 1))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory for %lld bytes of records", total);
            goto out;
        }
    }
    if (mpi.gatherv(buf, n, mpi.byte, *all, counts, displs, mpi.byte, 0, mpi.comm_world) != 0)
        st = gb_error_set(GB_ERR_IO, "MPI_Gatherv of the parts failed");
out:
    free(counts);
    free(displs);
    if (st != GB_OK) {
        free(*all);
        free(*lens);
        *all = NULL, *lens = NULL;
    }
    return st;
}

void gb_mpi_close(struct gb_mpi *w)
{
    int done = 0;
    if (!w->active)
        return;
    w->active = 0;
    if (mpi.finalized(&done) == 0 && !done)
        mpi.finalize();
}
