/* open_regular.c - open a regular file for reading, following no link and
 * blocking on nothing (open_regular.h). */
#include "util/open_regular.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *gb_fopen_regular(const char *path)
{
    struct stat sb;
    FILE *f = NULL;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), err = 0;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &sb) != 0)
        err = errno;
    else if (!S_ISREG(sb.st_mode))
        err = EINVAL;
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "r")))
        err = errno;
    if (err) {
        close(fd);
        errno = err;
    }
    return f;
}
