/* record_check.c - a record made outside a run (an import) checked
 * against the record table (GB_RECORD_FIELDS, schema.h) before it is
 * written: every number in the range loading holds it to (validate.c),
 * every text without control bytes, and the names that select benches
 * (suite, bench, axis names) without a path separator. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/schema.h"
#include "util/text.h"

/* A number: NAN (written as null, read back as absent) or in range `id`. */
static enum gb_status gb_rc_number(const char *file, const char *where, const char *field, const char *sub,
                                   double v, enum gb_range_id id)
{
    char name[256];
    if (isnan(v) || gb_range_ok(id, v))
        return GB_OK;
    snprintf(name, sizeof name, "%s: %s%s%s", where, field, sub ? "." : "", sub ? sub : "");
    return gb_range_check(file, name, v, id);
}

enum gb_status gb_record_text_check(const char *file, const char *where, const char *field, const char *s, int name)
{
    const char *c = gb_text_control(s), *sep = name ? strpbrk(s, "/\\") : NULL;
    if (c)
        return gb_error_set(GB_ERR_FORMAT, "%s: %s%s%s \"%.60s\" holds a control character (byte 0x%02x): "
                            "a %s is one line of text", file, where ? where : "", where ? ": " : "", field, s,
                            (unsigned char)*c, name ? "name" : "value");
    if (sep)
        return gb_error_set(GB_ERR_FORMAT, "%s: %s%s%s \"%.60s\" holds a path separator '%c': a name "
                            "selects a bench (SUITE/BENCH) and names chart files; rename it",
                            file, where ? where : "", where ? ": " : "", field, s, *sep);
    return GB_OK;
}

/* The members of a CUSTOM row that hold text or numbers. */
static enum gb_status gb_rc_custom(const struct gb_record *r, const struct gb_field *f, const char *file,
                                   const char *where)
{
    enum gb_status st = GB_OK;
    char name[96];
    if (f->io == &gb_field_axes)
        for (int i = 0; i < r->n_axes && st == GB_OK; i++) {
            snprintf(name, sizeof name, "axes.%.40s", r->axes[i].name);
            if ((st = gb_record_text_check(file, where, "axis name", r->axes[i].name, 1)) == GB_OK)
                st = gb_record_text_check(file, where, name, r->axes[i].value, 0);
        }
    if (f->io == &gb_field_metrics)
        for (int i = 0; i < r->n_metrics && st == GB_OK; i++)
            if ((st = gb_record_text_check(file, where, "metric name", r->metrics[i].name, 0)) == GB_OK)
                st = gb_rc_number(file, where, "metrics", r->metrics[i].name, r->metrics[i].value,
                                  GB_RANGE_METRIC);
    if (f->io == &gb_field_samples)
        for (int i = 0; i < r->n_sample_ns && st == GB_OK; i++) {
            snprintf(name, sizeof name, "sample_ns[%d]", i);
            st = gb_rc_number(file, where, name, NULL, r->sample_ns[i], GB_RANGE_TIME_NS);
        }
    return st;
}

/* One row of the record table. */
static enum gb_status gb_rc_field(const struct gb_record *r, const struct gb_field *f, const char *file,
                                  const char *where)
{
    const void *p = (const char *)r + f->off;
    switch (f->kind) {
    case GB_FK_STR:
        return gb_record_text_check(file, where, f->key, p, strcmp(f->key, "suite") == 0 || strcmp(f->key, "bench") == 0);
    case GB_FK_INT:
    case GB_FK_BOOL: return gb_rc_number(file, where, f->key, NULL, *(const int *)p, f->range);
    case GB_FK_REAL: return gb_rc_number(file, where, f->key, NULL, *(const double *)p, f->range);
    case GB_FK_TIMES: {
        const struct gb_time_stats *t = p;
        enum gb_status st = GB_OK;
#define GB_RC_STAT(s) if (st == GB_OK) st = gb_rc_number(file, where, f->key, #s, t->s, f->range);
        GB_TIME_STATS(GB_RC_STAT)
#undef GB_RC_STAT
        return st;
    }
    case GB_FK_CUSTOM: return gb_rc_custom(r, f, file, where);
    case GB_FK_ENUM: break;
    }
    return GB_OK;
}

enum gb_status gb_record_validate(const struct gb_record *r, const char *file, const char *where)
{
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < gb_record_n_fields && st == GB_OK; i++)
        st = gb_rc_field(r, &gb_record_fields[i], file, where);
    return st;
}
