/* fs.c - directories and atomic writes (fs.h). */
#include "util/fs.h"

#include <errno.h>
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

enum gb_status gb_atomic_open(struct gb_atomic_file *a, const char *path, const char *mode)
{
    memset(a, 0, sizeof *a);
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof a->path || !gb_tmp_name(a->tmp, sizeof a->tmp, path))
        return gb_error_set(GB_ERR_IO, "bad file name '%s'", path);
    memcpy(a->path, path, n + 1);
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
