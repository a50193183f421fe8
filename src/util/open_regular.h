/* open_regular.h - reading a file that may have been planted: an existing
 * output read before it is replaced (the guards that keep a fit made on more
 * points), where a symbolic link or a FIFO at that name must neither be
 * followed nor hang the command.
 */
#ifndef GPUBOUND_UTIL_OPEN_REGULAR_H
#define GPUBOUND_UTIL_OPEN_REGULAR_H

#include <stdio.h>

/* Opens `path` for reading ("r") only when it is a regular file: a symbolic
 * link as its last component is not followed (ELOOP), and the open never
 * blocks (O_NONBLOCK, cleared once fstat has seen a regular file), so a FIFO
 * or device there is refused (EINVAL) rather than waited on. NULL with errno
 * on failure (ENOENT when there is nothing); the caller fcloses the stream. */
FILE *gb_fopen_regular(const char *path);

#endif
