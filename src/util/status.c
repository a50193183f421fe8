/* status.c - the thread-local error detail behind enum gb_status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/status.h"
#include "util/text.h"

static _Thread_local char gb_msg[8192];

/* Of a message too long to keep, the head and the tail are kept: the
 * tail says why (a message ends in its reason), the head what failed. */
#define GB_MSG_HEAD 2048

/* `text` (n bytes) escaped into gb_msg (a control byte as an escape,
 * gb_text_escape_char, so that a value holding a newline cannot split the
 * one line an error is); when too long, its middle left
 * out and said so, cut only between UTF-8 characters. */
static void gb_msg_store(const char *text, size_t n)
{
    size_t cap = sizeof gb_msg - 1, esc = 0, len = 0;
    char e[5];
    for (size_t i = 0; i < n; i++)
        esc += gb_text_escape_char((unsigned char)text[i], e);
    size_t head = esc <= cap ? n : 0, tail = n, room = GB_MSG_HEAD;
    if (esc > cap) { /* head: whole characters within GB_MSG_HEAD escaped bytes */
        for (size_t w; head < n && (w = gb_text_escape_char((unsigned char)text[head], e)) <= room; head++)
            room -= w;
        room = cap - (GB_MSG_HEAD - room) - 64;
        for (size_t w; tail > head && (w = gb_text_escape_char((unsigned char)text[tail - 1], e)) <= room; tail--)
            room -= w;
        while (head > 0 && ((unsigned char)text[head] & 0xc0) == 0x80)
            head--;
        while (tail < n && ((unsigned char)text[tail] & 0xc0) == 0x80)
            tail++;
    }
    for (size_t i = 0; i < head; i++)
        for (size_t k = 0, w = gb_text_escape_char((unsigned char)text[i], e); k < w; k++)
            gb_msg[len++] = e[k];
    if (head < n)
        len += (size_t)snprintf(gb_msg + len, 64, " [... %zu bytes left out ...] ", tail - head);
    for (size_t i = head < n ? tail : n; i < n; i++)
        for (size_t k = 0, w = gb_text_escape_char((unsigned char)text[i], e); k < w; k++)
            gb_msg[len++] = e[k];
    gb_msg[len] = '\0';
}

enum gb_status gb_error_vset(enum gb_status st, const char *fmt, va_list ap)
{
    /* Formatted apart first: callers may pass the current message as an
     * argument, to add context to it. */
    char tmp[sizeof gb_msg];
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    char *all = n >= (int)sizeof tmp ? malloc((size_t)n + 1) : NULL;
    if (all)
        vsnprintf(all, (size_t)n + 1, fmt, aq);
    va_end(aq);
    if (n < 0)
        n = 0;
    gb_msg_store(all ? all : tmp, all ? (size_t)n : strnlen(tmp, sizeof tmp - 1));
    free(all);
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
