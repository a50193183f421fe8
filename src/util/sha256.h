/* sha256.h - SHA-256 digests of texts and files, as lowercase hex, through
 * OpenSSL's libcrypto (EVP): what run.json keeps of the spec files and
 * kernel sources a run compiled (docs/results-format.md, "sha256"). */
#ifndef GPUBOUND_UTIL_SHA256_H
#define GPUBOUND_UTIL_SHA256_H

#include <stddef.h>

#include "gpubound/status.h"

/* A digest as text: 64 lowercase hex digits and the terminator. */
#define GB_SHA256_HEX 65

/* The digest of `n` bytes at `data` into `hex`. GB_ERR_NOMEM when the
 * library cannot make its context. Thread-safe. */
enum gb_status gb_sha256_hex(const void *data, size_t n, char hex[GB_SHA256_HEX]);

/* The digest of the file at `path` (read in pieces, whatever its size).
 * GB_ERR_IO naming the file when it cannot be read. */
enum gb_status gb_sha256_file(const char *path, char hex[GB_SHA256_HEX]);

/* Whether `s` is a digest as gb_sha256_hex writes it (64 lowercase hex digits). */
int gb_sha256_is_hex(const char *s);

#endif
