/* sha256.c - SHA-256 through libcrypto's EVP interface (sha256.h). */
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "util/sha256.h"

static void gb_sha256_text(const unsigned char *md, char hex[GB_SHA256_HEX])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[64] = '\0';
}

enum gb_status gb_sha256_hex(const void *data, size_t n, char hex[GB_SHA256_HEX])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    hex[0] = '\0';
    if (EVP_Digest(data, n, md, &len, EVP_sha256(), NULL) != 1 || len != 32)
        return gb_error_set(GB_ERR_NOMEM, "SHA-256 could not be computed (libcrypto)");
    gb_sha256_text(md, hex);
    return GB_OK;
}

enum gb_status gb_sha256_file(const char *path, char hex[GB_SHA256_HEX])
{
    unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    enum gb_status st = GB_OK;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    FILE *f = NULL;
    size_t got;
    hex[0] = '\0';
    if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        st = gb_error_set(GB_ERR_NOMEM, "SHA-256 could not be computed (libcrypto)");
        goto out;
    }
    if (!(f = fopen(path, "rb"))) {
        st = gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        goto out;
    }
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        if (EVP_DigestUpdate(ctx, buf, got) != 1) {
            st = gb_error_set(GB_ERR_NOMEM, "SHA-256 could not be computed (libcrypto)");
            goto out;
        }
    if (ferror(f) || !feof(f)) {
        st = gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
        goto out;
    }
    if (EVP_DigestFinal_ex(ctx, md, &len) != 1 || len != 32) {
        st = gb_error_set(GB_ERR_NOMEM, "SHA-256 could not be computed (libcrypto)");
        goto out;
    }
    gb_sha256_text(md, hex);
out:
    if (f)
        fclose(f);
    EVP_MD_CTX_free(ctx);
    return st;
}

int gb_sha256_is_hex(const char *s)
{
    return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}
