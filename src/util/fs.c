/* fs.c - directories and atomic writes (fs.h). */
#include "util/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

void gb_fs_host_tag(char *out, size_t n)
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

/* The pid in `name` after `prefix`, followed by `end` and then exactly
 * `tail` more characters; -1 when the name is not of that form. */
static long gb_leftover_pid(const char *name, const char *prefix, const char *end, size_t tail)
{
    size_t n = strlen(prefix), e = strlen(end);
    char *stop;
    if (strncmp(name, prefix, n) != 0 || name[n] < '1' || name[n] > '9')
        return -1;
    long pid = strtol(name + n, &stop, 10);
    if (strncmp(stop, end, e) != 0 || strlen(stop + e) != tail)
        return -1;
    return pid;
}

int gb_fs_remove_tree(int dirfd, const char *name, int depth)
{
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    DIR *d = fdopendir(fd);
    struct dirent *e;
    struct stat sb;
    if (!d) {
        close(fd);
        return -1;
    }
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (fstatat(fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (!S_ISDIR(sb.st_mode))
            unlinkat(fd, e->d_name, 0);
        else if (depth > 0)
            gb_fs_remove_tree(fd, e->d_name, depth - 1);
    }
    closedir(d);
    return unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* Whether entry `name` of `fd` is a leftover this user made of `type`
 * (S_IFDIR or S_IFREG), looked at without following a link. */
static int gb_is_own(int fd, const char *name, mode_t type)
{
    struct stat sb;
    return fstatat(fd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && (sb.st_mode & S_IFMT) == type &&
           sb.st_uid == geteuid();
}

void gb_fs_sweep(const char *dir, const char *base)
{
    char host[16], here[24], tmp[GB_PATH_MAX];
    int fd = open(dir[0] ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    gb_fs_host_tag(host, sizeof host);
    snprintf(here, sizeof here, ".%s", host);
    if (base)
        snprintf(tmp, sizeof tmp, ".%s.", base);
    while ((e = readdir(d))) {
        long pid = gb_leftover_pid(e->d_name, ".gb-stage.", here, 6);
        if (pid > 0 && gb_pid_gone(pid) && gb_is_own(fd, e->d_name, S_IFDIR))
            gb_fs_remove_tree(fd, e->d_name, 1);
        else if (base && (pid = gb_leftover_pid(e->d_name, tmp, here, 4)) > 0 &&
                 !strcmp(e->d_name + strlen(e->d_name) - 4, ".tmp") && gb_pid_gone(pid) &&
                 gb_is_own(fd, e->d_name, S_IFREG))
            unlinkat(fd, e->d_name, 0);
    }
    closedir(d);
}

/* What a special file is, in words; NULL for what an output may replace. */
static const char *gb_special_kind(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFIFO: return "a FIFO";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    default: return NULL;
    }
}

enum gb_status gb_fs_replaceable(int dirfd, const char *name, const char *shown)
{
    struct stat sb;
    const char *kind;
    if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !(kind = gb_special_kind(sb.st_mode)))
        return GB_OK;
    return gb_error_set(GB_ERR_IO, "cannot write %s: it is %s, not a regular file, and is never replaced; "
                        "remove it or write elsewhere", shown, kind);
}

FILE *gb_fopen_nofollow(const char *path)
{
    struct stat sb;
    FILE *f = NULL;
    int err = EINVAL;
    if (lstat(path, &sb) == 0 && gb_special_kind(sb.st_mode)) {
        errno = EINVAL;
        return NULL;
    }
    /* Non-blocking, so that a FIFO put there since is refused, not waited on. */
    int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        if (fcntl(fd, F_SETFL, 0) == 0 && ftruncate(fd, 0) == 0)
            f = fdopen(fd, "w");
        err = errno;
    }
    if (!f) {
        close(fd);
        errno = err;
    }
    return f;
}

/* The temporary is a hidden name in the final file's directory, so the
 * rename never crosses a file system; pid and host keep writers apart. */
static int gb_tmp_name(char *tmp, size_t n, const char *path)
{
    char host[16];
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    gb_fs_host_tag(host, sizeof host);
    int w = snprintf(tmp, n, "%.*s.%s.%ld.%s.tmp", dir_len, path, base, (long)getpid(), host);
    return w > 0 && (size_t)w < n && base[0];
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
    gb_fs_sweep(dir, slash ? slash + 1 : path);
}

enum gb_status gb_atomic_open(struct gb_atomic_file *a, const char *path, const char *mode)
{
    memset(a, 0, sizeof *a);
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof a->path || !gb_tmp_name(a->tmp, sizeof a->tmp, path))
        return gb_error_set(GB_ERR_IO, "bad file name '%s'", path);
    memcpy(a->path, path, n + 1);
    enum gb_status st = gb_fs_replaceable(AT_FDCWD, path, path);
    if (st != GB_OK)
        return st;
    gb_atomic_sweep(path);
    /* Made here and now: a name planted beforehand (a link) is refused. */
    int fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 || !(a->f = fdopen(fd, mode))) {
        int err = errno;
        if (fd >= 0) {
            close(fd);
            unlink(a->tmp);
        }
        return gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(err));
    }
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
    if (!bad && gb_fs_replaceable(AT_FDCWD, a->path, a->path) != GB_OK) {
        unlink(a->tmp);
        return GB_ERR_IO;
    }
    /* rename replaces a link at the final name; it never writes through it. */
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
