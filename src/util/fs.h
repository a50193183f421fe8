/* fs.h - file helpers every module shares: directories and atomic writes.
 *
 * A file gpubound writes is never seen half-written: it is written under a
 * temporary name in the same directory and renamed into place only when the
 * writer commits. A writer that fails or aborts leaves the old file as it
 * was and removes its temporary.
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

/* A file being written atomically. Caller-owned storage; not thread-safe
 * per object. */
struct gb_atomic_file {
    FILE *f;                       /* write here between open and commit */
    char path[GB_PATH_MAX];        /* the final name */
    char tmp[GB_PATH_MAX + 32];    /* the temporary beside it */
};

/* Opens a temporary beside `path` for writing ("w" or "wb" in `mode`).
 * GB_ERR_IO with the path and the system's reason on failure. */
enum gb_status gb_atomic_open(struct gb_atomic_file *a, const char *path, const char *mode);

/* Flushes and closes the temporary and renames it to the final name. On any
 * error (including an earlier write error on a->f) the temporary is removed,
 * the final file is left as it was, and GB_ERR_IO is returned. */
enum gb_status gb_atomic_commit(struct gb_atomic_file *a);

/* Closes and removes the temporary; the final file is left as it was.
 * Safe on an object that was never opened or already committed. */
void gb_atomic_abort(struct gb_atomic_file *a);

/* Writes `n` bytes to `path` atomically (open, write, commit). */
enum gb_status gb_write_file_atomic(const char *path, const void *data, size_t n);

/* As gb_mkdir_p, and names in `made` the topmost directory it created (""
 * when `dir` existed), so that gb_rmdir_made can take them away again. On
 * failure whatever it made is removed. */
enum gb_status gb_mkdir_p_undoable(const char *dir, char *made, size_t n);

/* Removes `dir` and its parents up to `made` (from gb_mkdir_p_undoable),
 * each only while empty. */
void gb_rmdir_made(const char *dir, const char *made);

/* A command's outputs, staged: every file of the command is written into
 * `tmp` (a hidden directory beside or inside the final one, on its file
 * system) and moved into `dir` only when the whole command succeeded. A
 * command that fails aborts, and the final directory is as it was (a
 * directory made for it is removed again). */
struct gb_stage {
    char dir[GB_PATH_MAX];         /* the final directory */
    char tmp[GB_PATH_MAX + 32];    /* write here between open and commit */
    int open;
};

/* Makes the staging directory for `dir` (which need not exist yet).
 * GB_ERR_IO with the reason. */
enum gb_status gb_stage_open(struct gb_stage *s, const char *dir);

/* Creates `dir` when missing and renames every staged file into it,
 * replacing files of the same names; removes the staging directory.
 * GB_ERR_IO when a rename fails (files already moved stay). */
enum gb_status gb_stage_commit(struct gb_stage *s);

/* Removes the staged files and the staging directory; `dir` is untouched.
 * Safe on a stage that was never opened or already committed. */
void gb_stage_abort(struct gb_stage *s);

#endif
