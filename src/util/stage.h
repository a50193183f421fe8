/* stage.h - a command's outputs, staged: the one way a gpubound command
 * writes files into a directory and the one way it undoes a failure.
 *
 * A command opens a stage for its destination directory, writes every file
 * it makes into the stage (a private directory that this process created
 * with mkdtemp, mode 0700, on the destination's file system), and commits
 * at the end. Commit moves the staged set into the destination as a unit:
 * every file replaced, or (when any rename fails) every file put back as it
 * was and the directories commit made removed again. A command that fails
 * before commit aborts, and the destination is untouched.
 *
 * Nothing here follows a symbolic link it did not make: the stage is made
 * by mkdtemp; renames go through directory descriptors and replace a link
 * at a destination name rather than write through it; leftovers of killed
 * commands are removed only when they are real directories of this user,
 * named for this host and a process that is gone.
 */
#ifndef GPUBOUND_UTIL_STAGE_H
#define GPUBOUND_UTIL_STAGE_H

#include <stddef.h>

#include "gpubound/status.h"
#include "util/fs.h"

/* The name a backup of the destination's files takes inside the stage
 * during commit; writers do not use it. */
#define GB_STAGE_OLD ".gb-old"

/* Caller-owned; one per destination directory; not thread-safe per object. */
struct gb_stage {
    char dir[GB_PATH_MAX];         /* the destination directory */
    char tmp[GB_PATH_MAX + 64];    /* the stage: write here between open and commit */
    char made[GB_PATH_MAX];        /* the top directory commit made ("" none) */
    int open;
    int live;                      /* its slot for gb_stage_remove_open (0 none) */
};

/* Makes the stage for `dir`, which need not exist yet: inside `dir` when it
 * exists, else in its nearest existing ancestor. Removes, there, the stages
 * and temporaries that killed gpubound commands of this host and user left
 * (real directories and regular files only; a symbolic link of that name is
 * left alone). GB_ERR_IO with the reason when `dir` exists as a non-directory
 * or the stage cannot be made. */
enum gb_status gb_stage_open(struct gb_stage *s, const char *dir);

/* A stage for the one output file `path`: gb_stage_open on the file's
 * directory ("." when it names none), which must exist, and in `staged`
 * (n bytes) where the writer writes it. GB_ERR_IO when the directory is
 * missing, when `path` is a special file (gb_fs_replaceable), as
 * gb_stage_open, or for a name ending in '/'. */
enum gb_status gb_stage_open_file(struct gb_stage *s, const char *path, char *staged, size_t n);

/* "<stage>/<name>" into `buf` (n bytes): where a writer writes the output
 * `name` (a plain file name, no '/'). GB_ERR_IO when it does not fit or
 * `name` is not a plain name. */
enum gb_status gb_stage_path(const struct gb_stage *s, const char *name, char *buf, size_t n);

/* The final name of a staged path ("<dir>/<name>" for "<stage>/<name>";
 * any other path as it is) into `buf`; returns `buf`. */
const char *gb_stage_final(const struct gb_stage *s, const char *staged, char *buf, size_t n);

/* Creates `dir` (and missing parents) and moves every staged file into it
 * as a unit, replacing files of the same names (a symbolic link at such a
 * name is replaced, never followed); removes the stage. When any step fails
 * every destination file is put back as it was, the directories made for
 * it are removed, and GB_ERR_IO says which file could not be written and
 * that nothing was. A staged entry that is not a regular file is refused,
 * and so is a FIFO, device or socket at a destination name (it is never
 * replaced). SIGINT and SIGTERM are held off while files move. The stage
 * is closed either way. */
enum gb_status gb_stage_commit(struct gb_stage *s);

/* Removes the stage and everything in it; `dir` is untouched. Safe on a
 * stage that was never opened or is already closed. */
void gb_stage_abort(struct gb_stage *s);

/* Aborts the stage after a failure `st` and restates the last error for
 * the user: staged paths named by their final names, and "(nothing was
 * written to DIR)" after it. Returns `st`. */
enum gb_status gb_stage_fail(struct gb_stage *s, enum gb_status st);

/* For a signal handler (async-signal-safe): removes every stage this
 * process has open and is not committing, and copies into `dir` (n bytes)
 * the destination of the first one removed ("" when none). The number
 * removed; their stage objects are then stale and must not be committed. */
int gb_stage_remove_open(char *dir, size_t n);

/* Creates `dir` and its missing parents and names in `made` the topmost
 * directory it created ("" when `dir` existed), for gb_stage_unmake; on
 * failure what it made is removed again. For a command whose output
 * directory is its product (a run, appended to as it measures). */
enum gb_status gb_stage_mkdir(const char *dir, char *made, size_t n);

/* Removes `dir` and its parents up to `made` (from gb_stage_mkdir), each
 * only while it is an empty directory. */
void gb_stage_unmake(const char *dir, const char *made);

#endif
