/* fs.h - file helpers every module shares: directories and atomic writes.
 *
 * A file gpubound writes is never seen half-written: it is written under a
 * temporary name in the same directory (created exclusively, never through
 * a symbolic link) and renamed into place only when the writer commits. A
 * writer that fails or aborts leaves the old file as it was and removes its
 * temporary. A command's set of outputs goes through util/stage.h.
 */
#ifndef GPUBOUND_UTIL_FS_H
#define GPUBOUND_UTIL_FS_H

#include <stddef.h>
#include <stdio.h>

#include "gpubound/status.h"

#define GB_PATH_MAX 4096

/* Creates `dir` and any missing parents (mode 0777 less the umask).
 * GB_ERR_IO when a component cannot be made or exists as a non-directory. */
enum gb_status gb_mkdir_p(const char *dir);

/* Whether `path` names an existing directory (1) or not (0). */
int gb_is_dir(const char *path);

/* GB_OK when an output may take the name `name` of directory `dirfd`
 * (AT_FDCWD for a path): nothing is there, or a regular file, a directory
 * (which the rename itself refuses) or a symbolic link (replaced, never
 * followed). A FIFO, a device or a socket there is refused with GB_ERR_IO,
 * naming `shown` (the name the user gave): an output never takes the place
 * of a special file. */
enum gb_status gb_fs_replaceable(int dirfd, const char *name, const char *shown);

/* Opens `path` for writing from its start ("w"), refusing a symbolic link
 * at that name (ELOOP) and anything there but a regular file (EINVAL: a
 * FIFO is not waited on, a device not written); for a file written in
 * place, as a run's records. NULL with errno on failure. */
FILE *gb_fopen_nofollow(const char *path);

/* A file being written atomically. Caller-owned storage; not thread-safe
 * per object. */
struct gb_atomic_file {
    FILE *f;                       /* write here between open and commit */
    char path[GB_PATH_MAX];        /* the final name */
    char tmp[GB_PATH_MAX + 32];    /* the temporary beside it */
};

/* Opens a temporary beside `path` for writing ("w" or "wb" in `mode`).
 * GB_ERR_IO with the path and the system's reason on failure, or when
 * `path` is a special file (gb_fs_replaceable). */
enum gb_status gb_atomic_open(struct gb_atomic_file *a, const char *path, const char *mode);

/* Flushes and closes the temporary and renames it to the final name, unless
 * a special file took that name meanwhile (gb_fs_replaceable). On any
 * error (including an earlier write error on a->f) the temporary is removed,
 * the final file is left as it was, and GB_ERR_IO is returned. */
enum gb_status gb_atomic_commit(struct gb_atomic_file *a);

/* Closes and removes the temporary; the final file is left as it was.
 * Safe on an object that was never opened or already committed. */
void gb_atomic_abort(struct gb_atomic_file *a);

/* Writes `n` bytes to `path` atomically (open, write, commit). */
enum gb_status gb_write_file_atomic(const char *path, const void *data, size_t n);

/* This host as six hex digits (a hash of its name), the part of a
 * leftover's name that keeps one host from sweeping another's on a shared
 * file system. */
void gb_fs_host_tag(char *out, size_t n);

/* Removes, in `dir`, what killed gpubound commands of this host and user
 * left: stage directories (".gb-stage.PID.HOSTxxxxxx", util/stage.h) and,
 * when `base` is given, temporaries of that file (".BASE.PID.HOST.tmp"),
 * whose process is gone. Only a real directory (for a stage) or a regular
 * file (for a temporary) owned by this user is removed; a symbolic link of
 * such a name is left alone and never followed. */
void gb_fs_sweep(const char *dir, const char *base);

/* Removes directory `name` of directory descriptor `dirfd` and what it
 * holds, `depth` levels of subdirectories deep at most, following no
 * symbolic link (a link inside is removed as a link). 0, or -1 with errno. */
int gb_fs_remove_tree(int dirfd, const char *name, int depth);

#endif
