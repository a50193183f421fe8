/* text.c - text helpers every module shares (text.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

static int gb_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

int gb_text_has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); n && p; p = strstr(p + 1, word))
        if (!(p > text && gb_ident_char(p[-1])) && !gb_ident_char(p[n]))
            return 1;
    return 0;
}

size_t gb_text_escape_char(unsigned char c, char out[5])
{
    if (c >= 0x20 && c != 0x7f)
        return out[0] = (char)c, 1;
    if (c == '\n' || c == '\t' || c == '\r')
        return out[0] = '\\', out[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r', 2;
    return (size_t)snprintf(out, 5, "\\x%02x", c);
}

void gb_text_escape(char *out, size_t n, const char *in)
{
    size_t len = 0;
    char e[5];
    if (!n)
        return;
    for (; *in; in++) {
        size_t w = gb_text_escape_char((unsigned char)*in, e);
        if (len + w >= n)
            break;
        memcpy(out + len, e, w);
        len += w;
    }
    while (*in && len > 0 && ((unsigned char)*in & 0xc0) == 0x80) /* not inside a character */
        in--, len--;
    out[len] = '\0';
}

const char *gb_text_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return s;
    return NULL;
}
