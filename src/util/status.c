/* status.c - the thread-local error detail behind enum gb_status. */
#include <stdio.h>
#include <string.h>

#include "gpubound/status.h"

static _Thread_local char gb_msg[8192];

enum gb_status gb_error_vset(enum gb_status st, const char *fmt, va_list ap)
{
    /* Formatted apart first: callers may pass the current message as an
     * argument, to add context to it. */
    char tmp[sizeof gb_msg];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    memcpy(gb_msg, tmp, sizeof gb_msg);
    return st;
}

enum gb_status gb_error_set(enum gb_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gb_error_vset(st, fmt, ap);
    va_end(ap);
    return st;
}

const char *gb_error_message(void)
{
    return gb_msg;
}

void gb_error_clear(void)
{
    gb_msg[0] = '\0';
}

const char *gb_status_name(enum gb_status st)
{
    switch (st) {
    case GB_OK: return "ok";
    case GB_ERR_USAGE: return "usage";
    case GB_ERR_NO_GPU: return "no-gpu";
    case GB_ERR_CUDA: return "cuda";
    case GB_ERR_NVRTC: return "nvrtc";
    case GB_ERR_COMPILE: return "compile";
    case GB_ERR_DEVICE_OOM: return "device-out-of-memory";
    case GB_ERR_VERIFY: return "verify";
    case GB_ERR_IO: return "io";
    case GB_ERR_FORMAT: return "format";
    case GB_ERR_NOMEM: return "out-of-memory";
    case GB_ERR_INTERRUPTED: return "interrupted";
    case GB_ERR_UNSUPPORTED: return "unsupported";
    case GB_ERR_NUMERIC: return "numeric";
    case GB_ERR_DEVICE_LOST: return "device-lost";
    case GB_ERR_TIMEOUT: return "timeout";
    }
    return "unknown";
}

int gb_status_exit_code(enum gb_status st)
{
    switch (st) {
    case GB_OK: return 0;
    case GB_ERR_USAGE: return 2;
    case GB_ERR_NO_GPU: return 3;
    default: return 1;
    }
}
