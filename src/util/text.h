/* text.h - text helpers every module shares. */
#ifndef GPUBOUND_UTIL_TEXT_H
#define GPUBOUND_UTIL_TEXT_H

/* Whether `word` stands in `text` as a whole identifier (no letter, digit
 * or underscore on either side). An empty word is never found. */
int gb_text_has_word(const char *text, const char *word);

#endif
