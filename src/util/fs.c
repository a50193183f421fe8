/* fs.c - directories and atomic writes (fs.h). */
#include "util/fs.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static enum gb_status gb_mkdir_one(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return gb_error_set(GB_ERR_IO, "cannot create directory %s: %s", path, strerror(errno));
    return GB_OK;
}

enum gb_status gb_mkdir_p(const char *dir)
{
    char path[GB_PATH_MAX];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path)
        return gb_error_set(GB_ERR_IO, "bad directory name '%s'", dir);
    memcpy(path, dir, n + 1);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/' || p[-1] == '/')
            continue;
        *p = '\0';
        enum gb_status st = gb_mkdir_one(path);
        *p = '/';
        if (st != GB_OK)
            return st;
    }
    enum gb_status st = gb_mkdir_one(path);
    if (st != GB_OK)
        return st;
    if (!gb_is_dir(path))
        return gb_error_set(GB_ERR_IO, "%s exists and is not a directory", path);
    return GB_OK;
}

int gb_is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* This host as six hex digits (a hash of its name) for leftovers' names:
 * short enough for every path buffer, distinct enough that one host never
 * sweeps another's stage on a shared file system. */
static void gb_host_tag(char *out, size_t n)
{
    char host[256];
    uint32_t h = 2166136261u;
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    for (const char *c = host; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    snprintf(out, n, "%06x", (unsigned)(h & 0xffffffu));
}

/* Whether process `pid` of this host is gone (a killed command). */
static int gb_pid_gone(long pid)
{
    return pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* The pid in `name` after `prefix`, followed by `end` (with anything after
 * it when `exact` is 0, nothing when 1); -1 when the name is not of that form. */
static long gb_leftover_pid(const char *name, const char *prefix, const char *end, int exact)
{
    size_t n = strlen(prefix);
    char *stop;
    if (strncmp(name, prefix, n) != 0)
        return -1;
    long pid = strtol(name + n, &stop, 10);
    if (stop == name + n || (exact ? strcmp(stop, end) : strncmp(stop, end, strlen(end))) != 0)
        return -1;
    return pid;
}

static void gb_stage_clear(const char *tmp);

/* Removes what a killed gpubound of this host left in `dir`: staging
 * directories (".gb-stage.PID.HOST*") and, when `base` is given, the
 * temporaries of that file (".BASE.PID.tmp"), whose pid is gone. Writers
 * that are alive, and other hosts' leftovers on a shared file system, are
 * left alone. */
static void gb_sweep_leftovers(const char *dir, const char *base)
{
    char host[16], here[24], tmp[GB_PATH_MAX], path[GB_PATH_MAX + 320];
    DIR *d = opendir(dir[0] ? dir : ".");
    struct dirent *e;
    if (!d)
        return;
    gb_host_tag(host, sizeof host);
    snprintf(here, sizeof here, ".%s", host);
    if (base)
        snprintf(tmp, sizeof tmp, ".%s.", base);
    while ((e = readdir(d))) {
        long pid = gb_leftover_pid(e->d_name, ".gb-stage.", here, 0);
        snprintf(path, sizeof path, "%s/%s", dir[0] ? dir : ".", e->d_name);
        if (pid > 0 && gb_pid_gone(pid))
            gb_stage_clear(path);
        else if (base && (pid = gb_leftover_pid(e->d_name, tmp, ".tmp", 1)) > 0 && gb_pid_gone(pid))
            unlink(path);
    }
    closedir(d);
}

/* The temporary is a hidden name in the final file's directory, so the
 * rename never crosses a file system; the pid keeps two writers apart. */
static int gb_tmp_name(char *tmp, size_t n, const char *path)
{
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    int w = snprintf(tmp, n, "%.*s.%s.%ld.tmp", dir_len, path, base, (long)getpid());
    return w > 0 && (size_t)w < n;
}

/* The stale temporaries of `path` (a killed writer's) go before a new one. */
static void gb_atomic_sweep(const char *path)
{
    char dir[GB_PATH_MAX];
    const char *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) : 0;
    if (len >= sizeof dir)
        return;
    memcpy(dir, path, len);
    dir[len] = '\0';
    if (slash && len == 0)
        snprintf(dir, sizeof dir, "/");
    gb_sweep_leftovers(dir, slash ? slash + 1 : path);
}

enum gb_status gb_atomic_open(struct gb_atomic_file *a, const char *path, const char *mode)
{
    memset(a, 0, sizeof *a);
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof a->path || !gb_tmp_name(a->tmp, sizeof a->tmp, path))
        return gb_error_set(GB_ERR_IO, "bad file name '%s'", path);
    memcpy(a->path, path, n + 1);
    gb_atomic_sweep(path);
    a->f = fopen(a->tmp, mode);
    if (!a->f)
        return gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return GB_OK;
}

enum gb_status gb_atomic_commit(struct gb_atomic_file *a)
{
    if (!a->f)
        return gb_error_set(GB_ERR_IO, "cannot write %s: not open", a->path);
    int bad = ferror(a->f) != 0;
    int err = errno;
    if (fclose(a->f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    a->f = NULL;
    if (!bad && rename(a->tmp, a->path) != 0) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        unlink(a->tmp);
        return gb_error_set(GB_ERR_IO, "cannot write %s: %s", a->path, strerror(err));
    }
    return GB_OK;
}

void gb_atomic_abort(struct gb_atomic_file *a)
{
    if (!a->f)
        return;
    fclose(a->f);
    a->f = NULL;
    unlink(a->tmp);
}

enum gb_status gb_write_file_atomic(const char *path, const void *data, size_t n)
{
    struct gb_atomic_file a;
    enum gb_status st = gb_atomic_open(&a, path, "wb");
    if (st != GB_OK)
        return st;
    if (n && fwrite(data, 1, n, a.f) != n) {
        int err = errno;
        gb_atomic_abort(&a);
        return gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(err));
    }
    return gb_atomic_commit(&a);
}

enum gb_status gb_mkdir_p_undoable(const char *dir, char *made, size_t n)
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
        *p = '\0';
        int exists = access(path, F_OK) == 0;
        if (!exists && !made[0])
            snprintf(made, n, "%s", path);
        *p = c;
        if (!c)
            break;
    }
    enum gb_status st = gb_mkdir_p(dir);
    if (st != GB_OK) {
        gb_rmdir_made(dir, made);
        made[0] = '\0';
    }
    return st;
}

void gb_rmdir_made(const char *dir, const char *made)
{
    char path[GB_PATH_MAX];
    size_t top = strlen(made);
    if (!made[0] || strlen(dir) >= sizeof path || strncmp(dir, made, top) != 0)
        return;
    snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        size_t len = strlen(path);
        while (len > 1 && path[len - 1] == '/')
            path[--len] = '\0';
        if (len < top || rmdir(path) != 0 || len == top)
            return;
        char *slash = strrchr(path, '/');
        if (!slash)
            return;
        *slash = '\0';
    }
}

/* Removes every entry of the staging directory, then the directory. */
static void gb_stage_clear(const char *tmp)
{
    DIR *d = opendir(tmp);
    struct dirent *e;
    char path[GB_PATH_MAX + 320];
    if (d) {
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(tmp);
}

enum gb_status gb_stage_open(struct gb_stage *s, const char *dir)
{
    char base[GB_PATH_MAX], host[16];
    memset(s, 0, sizeof *s);
    if (!dir[0] || strlen(dir) >= sizeof s->dir)
        return gb_error_set(GB_ERR_IO, "bad directory name '%s'", dir);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    /* Inside the directory when it exists, else in its deepest existing
     * ancestor: the same file system, so that commit only renames. */
    snprintf(base, sizeof base, "%s", dir);
    while (!gb_is_dir(base)) {
        char *slash = strrchr(base, '/');
        if (!slash) {
            snprintf(base, sizeof base, ".");
            break;
        }
        if (slash == base) {
            base[1] = '\0';
            break;
        }
        *slash = '\0';
    }
    gb_host_tag(host, sizeof host);
    gb_sweep_leftovers(base, NULL);
    int w = snprintf(s->tmp, sizeof s->tmp, "%s/.gb-stage.%ld.%sXXXXXX", strcmp(base, "/") ? base : "",
                     (long)getpid(), host);
    if (w < 0 || (size_t)w >= sizeof s->tmp)
        return gb_error_set(GB_ERR_IO, "directory name too long: '%s'", dir);
    if (!mkdtemp(s->tmp))
        return gb_error_set(GB_ERR_IO, "cannot write into %s: %s", base, strerror(errno));
    s->open = 1;
    return GB_OK;
}

enum gb_status gb_stage_commit(struct gb_stage *s)
{
    char made[GB_PATH_MAX], from[GB_PATH_MAX + 320], to[GB_PATH_MAX + 320];
    enum gb_status st = GB_OK;
    if (!s->open)
        return gb_error_set(GB_ERR_IO, "nothing staged for %s", s->dir);
    if ((st = gb_mkdir_p_undoable(s->dir, made, sizeof made)) != GB_OK) {
        gb_stage_abort(s);
        return st;
    }
    DIR *d = opendir(s->tmp);
    struct dirent *e;
    size_t moved = 0;
    if (!d)
        st = gb_error_set(GB_ERR_IO, "cannot read %s: %s", s->tmp, strerror(errno));
    while (st == GB_OK && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(from, sizeof from, "%s/%s", s->tmp, e->d_name);
        snprintf(to, sizeof to, "%s/%s", s->dir, e->d_name);
        if (rename(from, to) != 0)
            st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", to, strerror(errno));
        else
            moved++;
    }
    if (d)
        closedir(d);
    if (st != GB_OK && moved == 0)
        gb_rmdir_made(s->dir, made);
    gb_stage_abort(s);
    return st;
}

void gb_stage_abort(struct gb_stage *s)
{
    if (!s->open)
        return;
    gb_stage_clear(s->tmp);
    s->open = 0;
}
