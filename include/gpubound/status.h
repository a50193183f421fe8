/* status.h - the one error type of libgpubound.
 *
 * Every function that can fail returns enum gb_status (GB_OK == 0). The
 * detail (which call failed, where, and the driver's or library's own words)
 * is kept in a thread-local message that the CLI prints once. Library code
 * never prints and never exits.
 */
#ifndef GPUBOUND_STATUS_H
#define GPUBOUND_STATUS_H

#include "gpubound/api.h"

#include <stdarg.h>

enum gb_status {
    GB_OK = 0,
    GB_ERR_USAGE,        /* bad argument or value from the user */
    GB_ERR_NO_GPU,       /* no driver, no device, or the device is unusable */
    GB_ERR_CUDA,         /* a CUDA driver call failed */
    GB_ERR_NVRTC,        /* NVRTC is missing or one of its calls failed */
    GB_ERR_COMPILE,      /* a kernel failed to compile (message carries the log) */
    GB_ERR_DEVICE_OOM,   /* the device is out of memory */
    GB_ERR_VERIFY,       /* a benchmark's output was wrong */
    GB_ERR_IO,           /* a file could not be read or written */
    GB_ERR_FORMAT,       /* a file was read but is malformed */
    GB_ERR_NOMEM,        /* host allocation failed */
    GB_ERR_INTERRUPTED,  /* the user interrupted the run */
    GB_ERR_UNSUPPORTED,  /* the operation cannot be done on this device/input */
    GB_ERR_NUMERIC,      /* a model could not be computed (singular, too few points) */
    GB_ERR_DEVICE_LOST,  /* a kernel faulted: the context is lost until it is recreated */
    GB_ERR_TIMEOUT,      /* the GPU did not finish within the point's limit (a hung kernel) */
};

/* Records the detail of a failure for the current thread and returns `st`,
 * so that a failing call site reads `return gb_error_set(GB_ERR_IO, ...)`.
 * The message should say what failed and why; the CLI adds what to do. */
GB_API enum gb_status gb_error_set(enum gb_status st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
GB_API enum gb_status gb_error_vset(enum gb_status st, const char *fmt, va_list ap);

/* The message of the last gb_error_set on this thread ("" if none). The
 * pointer stays valid until the next gb_error_set on the same thread. */
GB_API const char *gb_error_message(void);

/* Clears the last message of this thread. */
GB_API void gb_error_clear(void);

/* A short constant name of a status ("cuda", "io", ...). */
GB_API const char *gb_status_name(enum gb_status st);

/* The process exit code the CLI uses for a status: 0 ok, 2 usage,
 * 3 no usable GPU, 1 anything else. */
GB_API int gb_status_exit_code(enum gb_status st);

#endif
