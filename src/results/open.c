/* open.c - a run's records file, plain or gzip-compressed (open.h). */
#include "results/open.h"

#include "gpubound/results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* Reads the whole decompressed text of a gzip file. Data up to a cut at
 * the end is kept (the run loader then reports a cut run); bad data
 * before that is a format error. */
static enum gb_status gb_gunzip(const char *path, char **buf, size_t *len)
{
    gzFile z = gzopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *b = NULL;
    enum gb_status st = GB_OK;
    if (!z)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno ? errno : ENOMEM));
    gzbuffer(z, 1 << 17);
    if (gzdirect(z)) { /* zlib would read a non-gzip file as it is: refuse it */
        st = gb_error_set(GB_ERR_FORMAT, "%s is not gzip data; compress records with 'gzip -9'", path);
        goto out;
    }
    for (;;) {
        if (!b || cap - n < (1 << 16)) {
            char *p = realloc(b, cap *= 2);
            if (!p) {
                st = gb_error_set(GB_ERR_NOMEM, "out of host memory reading %s", path);
                goto out;
            }
            b = p;
        }
        int got = gzread(z, b + n, (unsigned)(cap - n - 1));
        if (got > 0) {
            n += (size_t)got;
            if (n > GB_RECORDS_MAX_BYTES) {
                st = gb_error_set(GB_ERR_FORMAT, "%s decompresses to more than %lu bytes, the most "
                                  "a records file may hold", path, (unsigned long)GB_RECORDS_MAX_BYTES);
                goto out;
            }
            continue;
        }
        int zerr = Z_OK;
        const char *msg = gzerror(z, &zerr);
        if (got < 0 && zerr != Z_BUF_ERROR) /* Z_BUF_ERROR: the file ends mid-stream (a cut) */
            st = gb_error_set(zerr == Z_ERRNO ? GB_ERR_IO : GB_ERR_FORMAT, "cannot read %s: %s", path,
                              zerr == Z_ERRNO ? strerror(errno) : msg);
        break;
    }
out:
    gzclose(z);
    if (st != GB_OK) {
        free(b);
        return st;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return GB_OK;
}

/* The decompressed text behind a read-only stream; freed when the stream
 * is closed. */
struct gb_mem {
    char *data;
    size_t len, pos;
};

static ssize_t gb_mem_read(void *cookie, char *to, size_t n)
{
    struct gb_mem *m = cookie;
    size_t left = m->len - m->pos;
    if (n > left)
        n = left;
    memcpy(to, m->data + m->pos, n);
    m->pos += n;
    return (ssize_t)n;
}

static int gb_mem_close(void *cookie)
{
    struct gb_mem *m = cookie;
    free(m->data);
    free(m);
    return 0;
}

static enum gb_status gb_open_gz(const char *path, FILE **out)
{
    struct gb_mem *m = calloc(1, sizeof *m);
    if (!m)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory reading %s", path);
    enum gb_status st = gb_gunzip(path, &m->data, &m->len);
    if (st != GB_OK) {
        free(m);
        return st;
    }
    cookie_io_functions_t io = {.read = gb_mem_read, .close = gb_mem_close};
    FILE *f = fopencookie(m, "r", io);
    if (!f) {
        gb_mem_close(m);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory reading %s", path);
    }
    *out = f;
    return GB_OK;
}

/* GB_OK when `path` is a regular file; a directory, a device or a pipe is
 * refused (reading one would never end or end at once as if empty). */
static enum gb_status gb_regular(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path,
                            S_ISDIR(sb.st_mode) ? "it is a directory" : "not a regular file");
    return GB_OK;
}

enum gb_status gb_results_open(const char *dir, char *path, size_t n, FILE **out)
{
    struct stat sb;
    *out = NULL;
    snprintf(path, n, "%s/results.json", dir);
    if (lstat(path, &sb) == 0 || errno != ENOENT) {
        enum gb_status st = gb_regular(path);
        if (st != GB_OK)
            return st;
        FILE *f = fopen(path, "r");
        if (!f)
            return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        *out = f;
        return GB_OK;
    }
    char gz[4200];
    snprintf(gz, sizeof gz, "%s/results.json.gz", dir);
    if (stat(gz, &sb) != 0)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(ENOENT));
    snprintf(path, n, "%s", gz);
    enum gb_status st = gb_regular(gz);
    return st == GB_OK ? gb_open_gz(gz, out) : st;
}
