/* replace.c - the guard against replacing an output made from more points
 * (util/replace.h). */
#include "util/replace.h"

enum gb_status gb_replace_check(const char *file, size_t before, size_t now, int force,
                                const struct gb_replace_words *w)
{
    if (force || before <= now)
        return GB_OK;
    return gb_error_set(GB_ERR_UNSUPPORTED, "%s %s %zu %s and %s %zu; it is not replaced (%s)", file,
                        w->made, before, w->unit, w->now, now, w->remedy);
}
