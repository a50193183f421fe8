/* stage.c - a command's outputs, staged and moved into place as a unit
 * (stage.h). */
#include "util/stage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/stage_live.h"

enum gb_status gb_stage_mkdir(const char *dir, char *made, size_t n)
{
    char path[GB_PATH_MAX];
    size_t len = strlen(dir);
    made[0] = '\0';
    if (len == 0 || len >= sizeof path)
        return gb_error_set(GB_ERR_IO, "bad directory name '%s'", dir);
    memcpy(path, dir, len + 1);
    /* The first component that does not exist is the top of what is made. */
    for (char *p = path + 1;; p++) {
        if (*p && (*p != '/' || p[-1] == '/'))
            continue;
        char c = *p;
        struct stat sb;
        *p = '\0';
        if (lstat(path, &sb) != 0 && !made[0])
            snprintf(made, n, "%s", path);
        *p = c;
        if (!c)
            break;
    }
    enum gb_status st = gb_mkdir_p(dir);
    if (st != GB_OK) {
        gb_stage_unmake(dir, made);
        made[0] = '\0';
    }
    return st;
}

void gb_stage_unmake(const char *dir, const char *made)
{
    char path[GB_PATH_MAX];
    size_t top = strlen(made);
    if (!made[0] || strlen(dir) >= sizeof path || strncmp(dir, made, top) != 0)
        return;
    snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        size_t len = strlen(path);
        struct stat sb;
        while (len > 1 && path[len - 1] == '/')
            path[--len] = '\0';
        /* rmdir takes only an empty real directory; a link is not removed. */
        if (len < top || lstat(path, &sb) != 0 || !S_ISDIR(sb.st_mode) || rmdir(path) != 0 ||
            len == top)
            return;
        char *slash = strrchr(path, '/');
        if (!slash)
            return;
        *slash = '\0';
    }
}

/* `dir` itself when it is a directory, else its nearest existing ancestor:
 * the stage goes there, on the destination's file system. */
static enum gb_status gb_stage_base(const char *dir, char *base, size_t n)
{
    struct stat sb;
    snprintf(base, n, "%s", dir);
    if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return gb_error_set(GB_ERR_IO, "%s exists and is not a directory", dir);
    while (stat(base, &sb) != 0) {
        char *slash = strrchr(base, '/');
        if (!slash) {
            snprintf(base, n, ".");
            break;
        }
        if (slash == base) {
            base[1] = '\0';
            break;
        }
        *slash = '\0';
    }
    if (stat(base, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return gb_error_set(GB_ERR_IO, "cannot write into %s: %s is not a directory", dir, base);
    return GB_OK;
}

enum gb_status gb_stage_open(struct gb_stage *s, const char *dir)
{
    char base[GB_PATH_MAX], host[16];
    enum gb_status st;
    memset(s, 0, sizeof *s);
    if (!dir[0] || strlen(dir) >= sizeof s->dir)
        return gb_error_set(GB_ERR_IO, "bad directory name '%s'", dir);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    if ((st = gb_stage_base(dir, base, sizeof base)) != GB_OK)
        return st;
    gb_fs_host_tag(host, sizeof host);
    gb_fs_sweep(base, NULL);
    int w = snprintf(s->tmp, sizeof s->tmp, "%s/.gb-stage.%ld.%sXXXXXX", strcmp(base, "/") ? base : "",
                     (long)getpid(), host);
    if (w < 0 || (size_t)w >= sizeof s->tmp)
        return gb_error_set(GB_ERR_IO, "directory name too long: '%s'", dir);
    if (!mkdtemp(s->tmp))
        return gb_error_set(GB_ERR_IO, "cannot write into %s: %s", base, strerror(errno));
    s->open = 1;
    s->live = gb_stage_live_add(s->tmp, s->dir);
    return GB_OK;
}

enum gb_status gb_stage_path(const struct gb_stage *s, const char *name, char *buf, size_t n)
{
    if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
        return gb_error_set(GB_ERR_IO, "bad output name '%s'", name);
    int w = snprintf(buf, n, "%s/%s", s->tmp, name);
    if (w < 0 || (size_t)w >= n)
        return gb_error_set(GB_ERR_IO, "file name too long: %s/%s", s->dir, name);
    return GB_OK;
}

enum gb_status gb_stage_open_file(struct gb_stage *s, const char *path, char *staged, size_t n)
{
    char dir[GB_PATH_MAX];
    const char *slash = strrchr(path, '/');
    enum gb_status st;
    memset(s, 0, sizeof *s);
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    struct stat sb;
    int bad = stat(dir, &sb) != 0 ? errno : S_ISDIR(sb.st_mode) ? 0 : ENOTDIR;
    if (bad)
        return gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(bad));
    if ((st = gb_fs_replaceable(AT_FDCWD, path, path)) != GB_OK || (st = gb_stage_open(s, dir)) != GB_OK)
        return st;
    if ((st = gb_stage_path(s, slash ? slash + 1 : path, staged, n)) != GB_OK)
        gb_stage_abort(s);
    return st;
}

const char *gb_stage_final(const struct gb_stage *s, const char *staged, char *buf, size_t n)
{
    size_t len = strlen(s->tmp);
    if (s->tmp[0] && strncmp(staged, s->tmp, len) == 0 && (staged[len] == '/' || !staged[len]))
        snprintf(buf, n, "%s%s", s->dir, staged + len);
    else
        snprintf(buf, n, "%s", staged);
    return buf;
}

void gb_stage_abort(struct gb_stage *s)
{
    if (!s->open)
        return;
    gb_fs_remove_tree(AT_FDCWD, s->tmp, 1);
    s->open = 0;
    gb_stage_live_drop(s->live);
    s->live = 0;
}

/* The commit's descriptors and its journal: for each staged name, whether
 * the destination's file went aside into GB_STAGE_OLD and whether the new
 * one is in place. */
struct gb_commit {
    int dst, stg, old;
    struct dirent **names;
    int n;
    unsigned char *aside, *placed;
};

static int gb_staged_name(const struct dirent *e)
{
    return strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, GB_STAGE_OLD);
}

/* Opens the destination, the stage and the backup directory, and lists the
 * staged files (regular files only, in name order). */
static enum gb_status gb_commit_begin(const struct gb_stage *s, struct gb_commit *c)
{
    struct stat sb;
    c->dst = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    c->stg = open(s->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (c->dst < 0 || c->stg < 0)
        return gb_error_set(GB_ERR_IO, "cannot open %s: %s", c->dst < 0 ? s->dir : s->tmp, strerror(errno));
    if (mkdirat(c->stg, GB_STAGE_OLD, 0700) != 0 ||
        (c->old = openat(c->stg, GB_STAGE_OLD, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        return gb_error_set(GB_ERR_IO, "cannot write into %s: %s", s->dir, strerror(errno));
    if ((c->n = scandirat(c->stg, ".", &c->names, gb_staged_name, alphasort)) < 0)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", s->tmp, strerror(errno));
    c->aside = calloc((size_t)c->n + 1, 1);
    c->placed = calloc((size_t)c->n + 1, 1);
    if (!c->aside || !c->placed)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (int i = 0; i < c->n; i++)
        if (fstatat(c->stg, c->names[i]->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
            return gb_error_set(GB_ERR_IO, "cannot write %s/%s: the staged output is not a regular file",
                                s->dir, c->names[i]->d_name);
    return GB_OK;
}

/* Puts file `i` in place: the destination's file of that name (a file or
 * a link, never a directory) aside first; a special file there is refused. */
static enum gb_status gb_commit_one(const struct gb_stage *s, struct gb_commit *c, int i)
{
    const char *name = c->names[i]->d_name;
    char shown[GB_PATH_MAX + 300];
    struct stat sb;
    snprintf(shown, sizeof shown, "%s/%s", s->dir, name);
    if (gb_fs_replaceable(c->dst, name, shown) != GB_OK)
        return GB_ERR_IO;
    if (fstatat(c->dst, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(sb.st_mode)) {
        if (renameat(c->dst, name, c->old, name) != 0)
            return gb_error_set(GB_ERR_IO, "cannot replace %s/%s: %s", s->dir, name, strerror(errno));
        c->aside[i] = 1;
    }
    if (renameat(c->stg, name, c->dst, name) != 0)
        return gb_error_set(GB_ERR_IO, "cannot write %s/%s: %s", s->dir, name, strerror(errno));
    c->placed[i] = 1;
    return GB_OK;
}

/* Undoes the files moved so far, last first; the number that could not be
 * put back (their earlier content stays in the stage's GB_STAGE_OLD). */
static int gb_commit_undo(struct gb_commit *c)
{
    int lost = 0;
    if (!c->aside || !c->placed)
        return 0;
    for (int i = c->n - 1; i >= 0; i--) {
        const char *name = c->names[i]->d_name;
        if (c->placed[i] && renameat(c->dst, name, c->stg, name) != 0)
            unlinkat(c->dst, name, 0);
        if (c->aside[i] && renameat(c->old, name, c->dst, name) != 0)
            lost++;
    }
    return lost;
}

static void gb_commit_end(struct gb_commit *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->names[i]);
    if (c->n > 0)
        free(c->names);
    free(c->aside);
    free(c->placed);
    if (c->dst >= 0)
        close(c->dst);
    if (c->stg >= 0)
        close(c->stg);
    if (c->old >= 0)
        close(c->old);
}

enum gb_status gb_stage_commit(struct gb_stage *s)
{
    struct gb_commit c = {.dst = -1, .stg = -1, .old = -1};
    enum gb_status st;
    sigset_t saved;
    int lost = 0;
    if (!s->open)
        return gb_error_set(GB_ERR_IO, "nothing staged for %s", s->dir);
    gb_stage_live_committing(s->live, 1, &saved);
    if ((st = gb_stage_mkdir(s->dir, s->made, sizeof s->made)) != GB_OK) {
        gb_stage_abort(s);
        gb_stage_live_committing(0, 0, &saved);
        return gb_error_set(st, "%s (nothing was written to %s)", gb_error_message(), s->dir);
    }
    st = gb_commit_begin(s, &c);
    for (int i = 0; i < c.n && st == GB_OK; i++)
        st = gb_commit_one(s, &c, i);
    if (st != GB_OK) {
        char msg[4096];
        snprintf(msg, sizeof msg, "%s", gb_error_message());
        if ((lost = gb_commit_undo(&c)) > 0)
            gb_error_set(st, "%s; %d earlier file(s) of %s could not be put back and are kept in %s/%s", msg,
                         lost, s->dir, s->tmp, GB_STAGE_OLD);
        else
            gb_error_set(st, "%s (nothing was written to %s; it is as it was)", msg, s->dir);
    }
    gb_commit_end(&c);
    if (st != GB_OK)
        gb_stage_unmake(s->dir, s->made);
    if (lost) { /* the stage keeps what could not be put back */
        s->open = 0;
        gb_stage_live_drop(s->live);
        s->live = 0;
    } else {
        gb_stage_abort(s);
    }
    gb_stage_live_committing(0, 0, &saved);
    return st;
}

enum gb_status gb_stage_fail(struct gb_stage *s, enum gb_status st)
{
    char msg[4096], out[6144];
    const char *m = gb_error_message();
    size_t len = strlen(s->tmp), o = 0;
    if (!s->open) /* not made, or commit's message already says what happened */
        return st;
    snprintf(msg, sizeof msg, "%s", m);
    /* Every staged path in the message is named as it would have been. */
    for (const char *p = msg; *p && o + 1 < sizeof out;) {
        if (len && strncmp(p, s->tmp, len) == 0) {
            o += (size_t)snprintf(out + o, sizeof out - o, "%s", s->dir);
            p += len;
        } else {
            out[o++] = *p++;
        }
        if (o >= sizeof out)
            o = sizeof out - 1;
    }
    out[o] = '\0';
    gb_stage_abort(s);
    return gb_error_set(st, "%s (nothing was written to %s)", out, s->dir);
}
