/* text.h - text helpers every module shares. */
#ifndef GPUBOUND_UTIL_TEXT_H
#define GPUBOUND_UTIL_TEXT_H

#include <stddef.h>

/* Whether byte `c` may stand in a C identifier: a letter, a digit or '_'. */
int gb_text_ident_char(int c);

/* The first place at or after `from` (a place in `text`) where `word`
 * stands as a whole identifier (no letter, digit or underscore on either
 * side), or NULL. An empty word is never found. */
const char *gb_text_find_word(const char *text, const char *from, const char *word);

/* Whether `word` stands in `text` as a whole identifier (gb_text_find_word). */
int gb_text_has_word(const char *text, const char *word);

/* Byte `c` as a one-line message shows it, into `out` (not terminated):
 * itself, or a control byte as an escape ("\n", "\t", "\r", "\x01"), so
 * that a value holding a newline cannot split the one line a message is.
 * Returns the bytes written (1 to 4). */
size_t gb_text_escape_char(unsigned char c, char out[5]);

/* `in` with every control byte escaped (gb_text_escape_char) into `out`
 * of `n` bytes, cut between characters when it does not fit. */
void gb_text_escape(char *out, size_t n, const char *in);

/* The first control byte of `s` (below 0x20, or 0x7f), or NULL. */
const char *gb_text_control(const char *s);

#endif
