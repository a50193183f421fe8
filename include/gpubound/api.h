/* api.h - GB_API marks what libgpubound exports.
 *
 * The library is built with hidden visibility (-fvisibility=hidden): a
 * function or table is part of the shared library's interface only when its
 * declaration in a public header (include/gpubound/) carries GB_API. The
 * static library and the program see every symbol as before.
 */
#ifndef GB_API_H
#define GB_API_H

#if defined(__GNUC__) || defined(__clang__)
#define GB_API __attribute__((visibility("default")))
#else
#define GB_API
#endif

#endif
