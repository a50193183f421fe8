/* schema.h - the record table (GB_RECORD_FIELDS in gpubound/results.h)
 * as data: one struct gb_field per row, which drives the JSON writer and
 * reader (record_json.c) and the CSV writer (write.c); and run.json's table
 * (GB_RUN_INFO_FIELDS) as data: one struct gb_run_field per row, which
 * drives run.json's writer and reader (run_json.c). */
#ifndef GB_RESULTS_SCHEMA_H
#define GB_RESULTS_SCHEMA_H

#include <jansson.h>
#include <stddef.h>

#include "gpubound/results.h"
#include "results/validate.h"

enum gb_field_kind { GB_FK_STR, GB_FK_INT, GB_FK_BOOL, GB_FK_REAL, GB_FK_ENUM, GB_FK_TIMES, GB_FK_CUSTOM };
enum gb_field_opt { GB_FO_REQUIRED, GB_FO_OPTIONAL, GB_FO_NULLABLE, GB_FO_OMIT, GB_FO_BATCHED };

/* The names of an ENUM field's values, in the enum's order. */
struct gb_enum_names {
    const char *const *names;
    int n;
    size_t max;                  /* the longest name loading reads, with its terminator */
};

/* Where a JSON reader is: the file, the JSON path of the object read
 * ("$[3]"), and where a violation goes (one line). */
struct gb_jr {
    const char *file;
    const char *path;
    char *why;
    size_t n;
};

/* Members of JSON object `o`, named in messages by j's file and path:
 * a number in range `id` (absent or null: NAN), an integer in range `id`
 * (absent or null: 0), a string of fewer than `n` bytes (absent: "", an
 * error when `required`; a longer one is refused, not cut). 0, or -1 with
 * the violation in j->why. */
int gb_jr_real(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id, double *out);
int gb_jr_int(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id, int *out);
int gb_jr_str(const struct gb_jr *j, json_t *o, const char *key, char *buf, size_t n, int required);

/* The handler of a CUSTOM field (record_json.c). */
struct gb_field_io {
    /* The field as JSON (a new reference), or NULL to leave the key out. */
    json_t *(*to_json)(const struct gb_record *r);
    /* The field of record object `o` into `r`: 0, or -1 with the violation. */
    int (*from_json)(const struct gb_jr *j, json_t *o, struct gb_record *r);
};

/* One row of GB_RECORD_FIELDS. */
struct gb_field {
    const char *key;
    enum gb_field_kind kind;
    size_t off, size;            /* the member's place and size in struct gb_record */
    enum gb_range_id range;      /* INT, BOOL, REAL, TIMES */
    const struct gb_enum_names *names; /* ENUM */
    const struct gb_field_io *io; /* CUSTOM */
    enum gb_field_opt opt;
    int csv;
};

/* The rows, in the order they are written (schema.c). */
extern const struct gb_field gb_record_fields[];
extern const size_t gb_record_n_fields;

/* The handlers and names the rows name (record_json.c, schema.c). */
extern const struct gb_field_io gb_field_axes, gb_field_metrics, gb_field_compile_log, gb_field_counters,
    gb_field_fleet, gb_field_samples;
extern const struct gb_enum_names gb_record_status_names, gb_cache_mode_names;

/* The CSV columns before the axes, between the axes and the metrics, and
 * after the metrics: csv places [1, 10), [10, 100), [100, ...). */
#define GB_CSV_AXES 10
#define GB_CSV_METRICS 100

/* Record `r`, made outside a run (an import), checked by the table before
 * it is written (record_check.c): every number NAN or in its row's range,
 * every text free of control bytes, the suite, bench and axis names free
 * of path separators. GB_OK, or GB_ERR_FORMAT with one line
 * "FILE: WHERE: FIELD = VALUE: allowed ..." (WHERE says which entry). */
enum gb_status gb_record_validate(const struct gb_record *r, const char *file, const char *where);
/* The text rule of gb_record_validate for one text `s`, called `field`
 * (at `where` of `file`, NULL for none): no control byte; when `name`, no
 * path separator either. GB_OK, or GB_ERR_FORMAT saying which and why. */
enum gb_status gb_record_text_check(const char *file, const char *where, const char *field, const char *s, int name);

/* The name of an ENUM field's value `v` ("unknown" out of range). */
const char *gb_enum_name(const struct gb_enum_names *e, int v);

/* ---- run.json (GB_RUN_INFO_FIELDS) ---- */

enum gb_run_field_kind {
    GB_RK_STR, GB_RK_INT, GB_RK_BOOL, GB_RK_REAL, GB_RK_PART, GB_RK_HASHES, GB_RK_CONST, GB_RK_DERIVED,
    GB_RK_CUSTOM
};
enum gb_run_field_opt { GB_RO_REQUIRED, GB_RO_OPTIONAL, GB_RO_OMIT, GB_RO_ADDED };

/* The handler of a CUSTOM row of run.json (run_json.c). */
struct gb_run_field_io {
    /* The field as JSON (a new reference), or NULL to leave the key out. */
    json_t *(*to_json)(const struct gb_run_info *in);
    /* The field `key` of `parent` (the row's parent object) into `in`: 0,
     * or -1 with the violation in j->why. */
    int (*from_json)(const struct gb_jr *j, json_t *parent, const char *key, struct gb_run_info *in);
};

/* One row of GB_RUN_INFO_FIELDS. */
struct gb_run_field {
    const char *parent;          /* "" the document, else the object's key */
    const char *key;
    enum gb_run_field_kind kind;
    size_t off, size;            /* the member's place and size in struct gb_run_info (STR ... HASHES) */
    enum gb_range_id range;      /* INT, BOOL, REAL, PART */
    const char *text;            /* CONST */
    double (*derive)(const struct gb_run_info *in); /* DERIVED */
    const struct gb_run_field_io *io; /* CUSTOM */
    enum gb_run_field_opt opt;
};

/* The rows, in the order they are written (schema.c). */
extern const struct gb_run_field gb_run_fields[];
extern const size_t gb_run_n_fields;

/* The handlers the rows name (run_json.c). */
extern const struct gb_run_field_io gb_run_field_device;

#endif
