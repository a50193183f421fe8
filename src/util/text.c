/* text.c - text helpers every module shares (text.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

int gb_text_ident_char(int c)
{
    return isalnum((unsigned char)c) || c == '_';
}

const char *gb_text_find_word(const char *text, const char *from, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(from, word); n && p; p = strstr(p + 1, word))
        if (!(p > text && gb_text_ident_char(p[-1])) && !gb_text_ident_char(p[n]))
            return p;
    return NULL;
}

int gb_text_has_word(const char *text, const char *word)
{
    return gb_text_find_word(text, text, word) != NULL;
}

/* A control byte: below a space, or DEL. */
static int gb_text_is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

size_t gb_text_escape_char(unsigned char c, char out[5])
{
    if (!gb_text_is_control(c))
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
        if (gb_text_is_control((unsigned char)*s))
            return s;
    return NULL;
}
