/* text.c - text helpers every module shares (text.h). */
#include <ctype.h>
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
