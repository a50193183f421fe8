/* lpbm_variants.c - one source analysis per preprocessed variant of a
 * kernel: a configuration whose -D values change what the source's
 * preprocessor directives decide (#if per_warp ... #else ... #endif) is
 * parsed apart, so that its atomics, barriers and counts are its own code's
 * (src/models/lpbm/lpbm_internal.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/analyze.h"
#include "gpubound/lpbm_input.h"
#include "lpbm_internal.h"
#include "util/text.h"

struct gb_lpbm_variant {
    char key[GB_LPBM_VARIANT_KEY];
    struct gb_kernel_analysis a;
    int ok;
};

struct gb_lpbm_variants {
    char *text;                              /* the source file, NUL-terminated */
    struct gb_lpbm_variant v[GB_LPBM_MAX_VARIANTS];
    size_t n;
};

/* The directive word of a line that starts with '#' ("if", "define"...), or "". */
static void directive_word(const char *line, char *word, size_t n)
{
    size_t k = 0;
    while (*line == ' ' || *line == '\t')
        line++;
    word[0] = '\0';
    if (*line++ != '#')
        return;
    while (*line == ' ' || *line == '\t')
        line++;
    while (k + 1 < n && isalpha((unsigned char)line[k]))
        word[k] = line[k], k++;
    word[k] = '\0';
}

/* Whether the whole word `name` at `at` sits in defined(...) or after
 * "defined": its presence is read there, not its value. */
static int inside_defined(const char *line, const char *at)
{
    const char *p = at;
    while (p > line && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '('))
        p--;
    return p - line >= 7 && strncmp(p - 7, "defined", 7) == 0 &&
           (p - line == 7 || !gb_text_ident_char((unsigned char)p[-8]));
}

int gb_lpbm_directive_reads(const char *text, const char *name)
{
    int reads = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char word[16];
        directive_word(line, word, sizeof word);
        int cond = !strcmp(word, "if") || !strcmp(word, "elif");
        int presence = !strcmp(word, "ifdef") || !strcmp(word, "ifndef");
        if (!cond && !presence && strcmp(word, "define") != 0)
            continue;
        const char *end = strchr(line, '\n');
        for (const char *at = gb_text_find_word(line, line, name); at && (!end || at < end);
             at = gb_text_find_word(line, at + 1, name))
            reads |= presence || (cond && inside_defined(line, at)) ? 1 : 2;
    }
    return reads;
}

void gb_lpbm_variant_key(const char *text, char defs[][200], size_t nd, char *key, size_t n)
{
    size_t len = 0;
    key[0] = '\0';
    for (size_t i = 0; text && i < nd && len < n; i++) {
        char name[200];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(defs[i], "="), defs[i]);
        if (gb_lpbm_directive_reads(text, name) & 2)
            len += (size_t)snprintf(key + len, n - len, "%s;", defs[i]);
    }
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long size;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)size + 1)) && fread(buf, 1, (size_t)size, f) == (size_t)size)
        buf[size] = '\0';
    else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

const char *gb_lpbm_variants_text(struct gb_lpbm_input *in)
{
    if (!in->variants && (in->variants = calloc(1, sizeof *in->variants)))
        in->variants->text = read_text(in->source);
    return in->variants ? in->variants->text : NULL;
}

const struct gb_kernel_analysis *gb_lpbm_variant_get(struct gb_lpbm_input *in, const char *include_dir,
                                                     char defs[][200], size_t nd)
{
    const char *text = gb_lpbm_variants_text(in);
    char key[GB_LPBM_VARIANT_KEY];
    const char *ptrs[GB_LPBM_DEFINES];
    struct gb_lpbm_variants *vs = in->variants;
    gb_lpbm_variant_key(text, defs, nd, key, sizeof key);
    if (!vs || strcmp(key, in->variant_key0) == 0)
        return &in->analysis;
    for (size_t i = 0; i < vs->n; i++)
        if (strcmp(vs->v[i].key, key) == 0)
            return vs->v[i].ok ? &vs->v[i].a : &in->analysis;
    if (vs->n == GB_LPBM_MAX_VARIANTS) {
        in->variants_capped = 1;   /* more variants than kept: the first parse's counts */
        return &in->analysis;
    }
    struct gb_lpbm_variant *v = &vs->v[vs->n++];
    snprintf(v->key, sizeof v->key, "%s", key);
    for (size_t i = 0; i < nd && i < GB_LPBM_DEFINES; i++)
        ptrs[i] = defs[i];
    v->ok = gb_analysis_run(in->source, include_dir, ptrs, nd, in->kernel, &v->a) == GB_OK;
    gb_error_clear();
    in->n_variants += v->ok;
    return v->ok ? &v->a : &in->analysis;
}

void gb_lpbm_variants_free(struct gb_lpbm_variants *vs)
{
    if (!vs)
        return;
    for (size_t i = 0; i < vs->n; i++)
        if (vs->v[i].ok)
            gb_analysis_release(&vs->v[i].a);
    free(vs->text);
    free(vs);
}
