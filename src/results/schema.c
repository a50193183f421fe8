/* schema.c - the rows of GB_RECORD_FIELDS and GB_RUN_INFO_FIELDS as data (schema.h). */
#include "results/schema.h"

static const char *const gb_status_names[] = {"ok", "failed", "skipped", "error"};
static const char *const gb_cache_names[] = {"hot", "cold"};
const struct gb_enum_names gb_record_status_names = {gb_status_names, 4, 32};
const struct gb_enum_names gb_cache_mode_names = {gb_cache_names, 2, 16};

/* The member each kind holds: a row of the wrong kind does not build. */
#define GB_KIND_IS_STR(m) _Generic(m, char *: 1, default: 0)
#define GB_KIND_IS_INT(m) _Generic(m, int: 1, default: 0)
#define GB_KIND_IS_BOOL(m) _Generic(m, int: 1, default: 0)
#define GB_KIND_IS_REAL(m) _Generic(m, double: 1, default: 0)
#define GB_KIND_IS_ENUM(m) (sizeof(m) == sizeof(int))
#define GB_KIND_IS_TIMES(m) _Generic(m, struct gb_time_stats: 1, default: 0)
#define GB_REC_MEMBER(member) (((struct gb_record *)0)->member)
#define GB_FIELD_CHECK(m, ct, dm, k, kd, ck, op, cv) GB_FIELD_CHECK_##kd(m, kd)
#define GB_FIELD_CHECK_CUSTOM(member, kind)
#define GB_FIELD_CHECK_ANY(member, kind) \
    _Static_assert(GB_KIND_IS_##kind(GB_REC_MEMBER(member)), "record field " #member " is not of kind " #kind);
#define GB_FIELD_CHECK_STR GB_FIELD_CHECK_ANY
#define GB_FIELD_CHECK_INT GB_FIELD_CHECK_ANY
#define GB_FIELD_CHECK_BOOL GB_FIELD_CHECK_ANY
#define GB_FIELD_CHECK_REAL GB_FIELD_CHECK_ANY
#define GB_FIELD_CHECK_ENUM GB_FIELD_CHECK_ANY
#define GB_FIELD_CHECK_TIMES GB_FIELD_CHECK_ANY
GB_RECORD_FIELDS(GB_FIELD_CHECK)

/* A row's check, by kind. */
#define GB_CHECK_STR(c) .io = NULL
#define GB_CHECK_INT(c) .range = c
#define GB_CHECK_BOOL(c) .range = c
#define GB_CHECK_REAL(c) .range = c
#define GB_CHECK_TIMES(c) .range = c
#define GB_CHECK_ENUM(c) .names = &c
#define GB_CHECK_CUSTOM(c) .io = &c
/* A CUSTOM row's members are its handler's: it has no place or size. */
#define GB_OFF_CUSTOM(member) 0
#define GB_SIZE_CUSTOM(member) 0
#define GB_OFF_MEMBER(member) offsetof(struct gb_record, member)
#define GB_SIZE_MEMBER(member) sizeof GB_REC_MEMBER(member)
#define GB_OFF_STR GB_OFF_MEMBER
#define GB_OFF_INT GB_OFF_MEMBER
#define GB_OFF_BOOL GB_OFF_MEMBER
#define GB_OFF_REAL GB_OFF_MEMBER
#define GB_OFF_ENUM GB_OFF_MEMBER
#define GB_OFF_TIMES GB_OFF_MEMBER
#define GB_SIZE_STR GB_SIZE_MEMBER
#define GB_SIZE_INT GB_SIZE_MEMBER
#define GB_SIZE_BOOL GB_SIZE_MEMBER
#define GB_SIZE_REAL GB_SIZE_MEMBER
#define GB_SIZE_ENUM GB_SIZE_MEMBER
#define GB_SIZE_TIMES GB_SIZE_MEMBER

#define GB_FIELD_ROW(m, ct, dm, k, kd, ck, op, cv)                                                 \
    {.key = k, .kind = GB_FK_##kd, .off = GB_OFF_##kd(m), .size = GB_SIZE_##kd(m), GB_CHECK_##kd(ck), \
     .opt = GB_FO_##op, .csv = cv},
const struct gb_field gb_record_fields[] = {GB_RECORD_FIELDS(GB_FIELD_ROW)};
const size_t gb_record_n_fields = sizeof gb_record_fields / sizeof gb_record_fields[0];

/* ---- run.json ---- */

/* The member each kind holds, as for records. */
#define GB_RUN_MEMBER_OF(member) (((struct gb_run_info *)0)->member)
#define GB_RUN_CHECK(m, ct, dm, par, k, kd, ck, op) GB_RUN_CHECK_##kd(m, kd)
#define GB_RUN_CHECK_ANY(member, kind) \
    _Static_assert(GB_KIND_IS_##kind(GB_RUN_MEMBER_OF(member)), "run.json field " #member " is not of kind " #kind);
#define GB_KIND_IS_PART(m) GB_KIND_IS_REAL(m)
#define GB_KIND_IS_HASHES(m) _Generic(m, struct gb_file_hashes: 1, default: 0)
#define GB_RUN_CHECK_STR GB_RUN_CHECK_ANY
#define GB_RUN_CHECK_INT GB_RUN_CHECK_ANY
#define GB_RUN_CHECK_BOOL GB_RUN_CHECK_ANY
#define GB_RUN_CHECK_REAL GB_RUN_CHECK_ANY
#define GB_RUN_CHECK_PART(member, kind) GB_RUN_CHECK_ANY(parts.member, kind)
#define GB_RUN_CHECK_HASHES GB_RUN_CHECK_ANY
#define GB_RUN_CHECK_CONST(member, kind)
#define GB_RUN_CHECK_DERIVED(member, kind)
#define GB_RUN_CHECK_CUSTOM(member, kind)
GB_RUN_INFO_FIELDS(GB_RUN_CHECK)

/* A row's check, place and size, by kind. */
#define GB_RCHECK_STR(c) .text = NULL
#define GB_RCHECK_INT(c) .range = c
#define GB_RCHECK_BOOL(c) .range = c
#define GB_RCHECK_REAL(c) .range = c
#define GB_RCHECK_PART(c) .range = c
#define GB_RCHECK_HASHES(c) .text = NULL
#define GB_RCHECK_CONST(c) .text = c
#define GB_RCHECK_DERIVED(c) .derive = c
#define GB_RCHECK_CUSTOM(c) .io = &c
#define GB_ROFF_MEMBER(member) .off = offsetof(struct gb_run_info, member), .size = sizeof GB_RUN_MEMBER_OF(member)
#define GB_ROFF_NONE(member) .off = 0, .size = 0
#define GB_ROFF_STR GB_ROFF_MEMBER
#define GB_ROFF_INT GB_ROFF_MEMBER
#define GB_ROFF_BOOL GB_ROFF_MEMBER
#define GB_ROFF_REAL GB_ROFF_MEMBER
#define GB_ROFF_PART(member) GB_ROFF_MEMBER(parts.member)
#define GB_ROFF_HASHES GB_ROFF_MEMBER
#define GB_ROFF_CONST GB_ROFF_NONE
#define GB_ROFF_DERIVED GB_ROFF_NONE
#define GB_ROFF_CUSTOM GB_ROFF_NONE

#define GB_RUN_ROW(m, ct, dm, par, k, kd, ck, op) \
    {.parent = par, .key = k, .kind = GB_RK_##kd, GB_ROFF_##kd(m), GB_RCHECK_##kd(ck), .opt = GB_RO_##op},
const struct gb_run_field gb_run_fields[] = {GB_RUN_INFO_FIELDS(GB_RUN_ROW)};
const size_t gb_run_n_fields = sizeof gb_run_fields / sizeof gb_run_fields[0];

const char *gb_enum_name(const struct gb_enum_names *e, int v)
{
    return v >= 0 && v < e->n ? e->names[v] : "unknown";
}
