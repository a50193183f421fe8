/* fleet.c - fleet members and parts as JSON, and the gathered run
 * directory (gpubound/fleet_records.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpubound/fleet_records.h"
#include "results/json.h"
#include "results/open.h"
#include "results/validate.h"
#include "util/fs.h"
#include "util/stage.h"

static const char *const gb_state_names[] = {"ok", "no-gpu", "failed"};

const char *gb_fleet_state_name(enum gb_fleet_state s)
{
    return (unsigned)s < 3 ? gb_state_names[s] : "failed";
}

int gb_fleet_state_parse(const char *s)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(s, gb_state_names[i]) == 0)
            return i;
    return -1;
}

void gb_fleet_part_release(struct gb_fleet_part *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_records; i++)
        gb_record_release(&p->records[i]);
    free(p->records);
    memset(p, 0, sizeof *p);
}

/* ---- members as JSON ---- */

static json_t *gb_member_to_json(const struct gb_fleet_member *m)
{
    json_t *o = json_object();
    json_object_set_new(o, "rank", json_integer(m->rank));
    json_object_set_new(o, "local_rank", m->local_rank >= 0 ? json_integer(m->local_rank) : json_null());
    json_object_set_new(o, "host", json_string(m->host));
    json_object_set_new(o, "state", json_string(gb_fleet_state_name(m->state)));
    json_object_set_new(o, "reason", json_string(m->reason));
    json_object_set_new(o, "exit_code", json_integer(m->exit_code));
    /* The digests are the gathered run's (gb_fleet_info): every member
     * measured the same plan with the same binary. */
    struct gb_run_info *in = malloc(sizeof *in);
    if (in) {
        *in = m->info;
        in->spec_sha256.n = in->spec_measured_sha256.n = in->kernel_sha256.n = 0;
    }
    json_object_set_new(o, "run", gb_run_info_to_json(in ? in : &m->info));
    free(in);
    return o;
}

/* A string member of `o` into buf (required). 0, or -1 with `why`. */
static int gb_fleet_str(json_t *o, const char *key, char *buf, size_t n, const char *file,
                        const char *path, char *why, size_t nw)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || strlen(json_string_value(v)) >= n) {
        snprintf(why, nw, "%s: %s.%s is %s: a string of at most %zu characters is required", file, path,
                 key, !v ? "missing" : json_is_string(v) ? "too long" : "not a string", n - 1);
        return -1;
    }
    snprintf(buf, n, "%s", json_string_value(v));
    return 0;
}

/* A member entry at `path` of `file`. 0, or -1 with the violation in `why`. */
static int gb_member_from_json(json_t *o, struct gb_fleet_member *m, const char *file, const char *path,
                               char *why, size_t n)
{
    long long rank, local, code;
    char state[16], sub[1024];
    memset(m, 0, sizeof *m);
    if (!json_is_object(o)) {
        snprintf(why, n, "%s: %s is not an object (a fleet member)", file, path);
        return -1;
    }
    json_t *lr = json_object_get(o, "local_rank");
    if (gb_json_range_int(o, "rank", GB_RANGE_POINTS, -1, &rank, file, path, why, n) ||
        (lr && !json_is_null(lr) &&
         gb_json_range_int(o, "local_rank", GB_RANGE_POINTS, -1, &local, file, path, why, n)) ||
        gb_json_range_int(o, "exit_code", GB_RANGE_POINTS, 0, &code, file, path, why, n) ||
        gb_fleet_str(o, "host", m->host, sizeof m->host, file, path, why, n) ||
        gb_fleet_str(o, "state", state, sizeof state, file, path, why, n) ||
        gb_fleet_str(o, "reason", m->reason, sizeof m->reason, file, path, why, n))
        return -1;
    if (rank < 0 || rank >= GB_FLEET_MAX_MEMBERS || code > 255) {
        snprintf(why, n, "%s: %s: rank %lld, exit code %lld: allowed ranks 0 to %d, exit codes 0 to 255",
                 file, path, rank, code, GB_FLEET_MAX_MEMBERS - 1);
        return -1;
    }
    int s = gb_fleet_state_parse(state);
    if (s < 0) {
        snprintf(why, n, "%s: %s.state = \"%s\": allowed ok, no-gpu or failed", file, path, state);
        return -1;
    }
    m->rank = (int)rank;
    m->local_rank = lr && !json_is_null(lr) ? (int)local : -1;
    m->exit_code = (int)code;
    m->state = (enum gb_fleet_state)s;
    if (gb_run_info_from_json(json_object_get(o, "run"), &m->info, file, sub, sizeof sub)) {
        snprintf(why, n, "%s.run: %s", path, sub);
        return -1;
    }
    return 0;
}

/* ---- parts as text ---- */

enum gb_status gb_fleet_part_to_text(const struct gb_fleet_part *p, char **text, size_t *len)
{
    json_t *o = json_object(), *recs = json_array();
    json_object_set_new(o, "format", json_string("gpubound-fleet-part/1"));
    json_object_set_new(o, "member", gb_member_to_json(&p->m));
    for (size_t i = 0; i < p->n_records; i++)
        json_array_append_new(recs, gb_record_to_json(&p->records[i]));
    json_object_set_new(o, "records", recs);
    *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    if (!*text)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory serializing a fleet part");
    *len = strlen(*text);
    return GB_OK;
}

/* The records array of a part into p. */
static enum gb_status gb_part_records(json_t *recs, struct gb_fleet_part *p, const char *what)
{
    char why[1024], path[64];
    size_t i;
    json_t *v;
    if (!json_is_array(recs))
        return gb_error_set(GB_ERR_FORMAT, "%s: $.records is not an array", what);
    if (!(p->records = calloc(json_array_size(recs) + 1, sizeof *p->records)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory reading %s", what);
    json_array_foreach(recs, i, v) {
        snprintf(path, sizeof path, "$.records[%zu]", i);
        if (gb_record_from_json(v, &p->records[i], what, path, why, sizeof why))
            return gb_error_set(GB_ERR_FORMAT, "%s", why);
        p->n_records++;
    }
    return GB_OK;
}

enum gb_status gb_fleet_part_from_text(const char *text, size_t len, const char *what,
                                       struct gb_fleet_part *p)
{
    json_error_t err;
    char why[1536];
    enum gb_status st = GB_OK;
    memset(p, 0, sizeof *p);
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!o)
        return gb_error_set(GB_ERR_FORMAT, "%s: not a fleet part: %s (byte %d)", what, err.text, err.position);
    if (!json_is_object(o) || !json_is_string(json_object_get(o, "format")) ||
        strcmp(json_string_value(json_object_get(o, "format")), "gpubound-fleet-part/1") != 0)
        st = gb_error_set(GB_ERR_FORMAT, "%s: $.format is not \"gpubound-fleet-part/1\"", what);
    else if (gb_member_from_json(json_object_get(o, "member"), &p->m, what, "$.member", why, sizeof why))
        st = gb_error_set(GB_ERR_FORMAT, "%s", why);
    else
        st = gb_part_records(json_object_get(o, "records"), p, what);
    json_decref(o);
    if (st != GB_OK)
        gb_fleet_part_release(p);
    return st;
}

/* ---- the gathered run ---- */

/* The run's metadata from its members'. */
static void gb_fleet_info(const struct gb_fleet_part *parts, size_t n, const struct gb_fleet_write_opts *o,
                          struct gb_run_info *in)
{
    const struct gb_run_info *dev = NULL;
    for (size_t i = 0; i < n && !dev; i++)
        if (parts[i].m.info.has_device)
            dev = &parts[i].m.info;
    gb_run_info_init(in, o->command_line, dev ? dev->nvrtc : NULL);
    snprintf(in->mode, sizeof in->mode, "%s", o->mode ? o->mode : "full");
    if (n > 0)
        snprintf(in->host, sizeof in->host, "%s", parts[0].m.host);
    if (dev) {
        in->has_device = 1;
        in->device = dev->device;
        snprintf(in->cuda_driver, sizeof in->cuda_driver, "%s", dev->cuda_driver);
        snprintf(in->driver_release, sizeof in->driver_release, "%s", dev->driver_release);
    }
    for (size_t i = 0; i < n && !in->spec_sha256.n && !in->kernel_sha256.n; i++) {
        in->spec_sha256 = parts[i].m.info.spec_sha256;
        in->spec_measured_sha256 = parts[i].m.info.spec_measured_sha256;
        in->kernel_sha256 = parts[i].m.info.kernel_sha256;
    }
    in->complete = n > 0;
    in->finished_utc[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const struct gb_run_info *m = &parts[i].m.info;
        in->complete &= parts[i].m.state == GB_FLEET_OK;
        in->points_ok += m->points_ok;
        in->points_failed += m->points_failed;
        in->wall_s = fmax(in->wall_s, m->wall_s);
        in->timed_s += m->timed_s;
        in->write_s += m->write_s;
        gb_wall_parts_add(&in->parts, &m->parts);
        in->modules_compiled += m->modules_compiled;
        in->modules_cached += m->modules_cached;
        if (m->started_utc[0] && strcmp(m->started_utc, in->started_utc) < 0)
            snprintf(in->started_utc, sizeof in->started_utc, "%s", m->started_utc);
        if (strcmp(m->finished_utc, in->finished_utc) > 0)
            snprintf(in->finished_utc, sizeof in->finished_utc, "%s", m->finished_utc);
    }
    if (!in->finished_utc[0])
        gb_utc_now(in->finished_utc, sizeof in->finished_utc);
}

/* Record `r` of member `m` as the gathered run holds it (a copy). */
static enum gb_status gb_fleet_record(const struct gb_record *r, const struct gb_fleet_member *m,
                                      struct gb_record *out)
{
    enum gb_status st = gb_record_copy(out, r);
    if (st != GB_OK)
        return st;
    out->fleet = 1;
    out->fleet_rank = m->rank;
    snprintf(out->fleet_host, sizeof out->fleet_host, "%s", m->host);
    snprintf(out->gpu_uuid, sizeof out->gpu_uuid, "%s", m->info.has_device ? m->info.device.uuid : "");
    return GB_OK;
}

/* results.csv again, with rank, host and gpu_uuid columns first. */
static enum gb_status gb_fleet_csv(const char *dir, const struct gb_record *recs, size_t n,
                                   const struct gb_fleet_write_opts *o)
{
    char path[GB_PATH_MAX + 200], rank[16], host[48];
    struct gb_atomic_file a;
    enum gb_status st = GB_OK;
    size_t made = 0;
    const char **axes = calloc((size_t)o->n_axes + 4, sizeof *axes);
    struct gb_record *c = calloc(n + 1, sizeof *c);
    if (!axes || !c) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    axes[0] = "rank", axes[1] = "host", axes[2] = "gpu_uuid";
    for (int i = 0; i < o->n_axes; i++)
        axes[3 + i] = o->axes[i];
    for (; made < n && st == GB_OK; made++) {
        snprintf(rank, sizeof rank, "%d", recs[made].fleet_rank);
        snprintf(host, sizeof host, "%.47s", recs[made].fleet_host); /* an axis value holds 47 */
        if ((st = gb_record_copy(&c[made], &recs[made])) == GB_OK &&
            (st = gb_record_set_axis(&c[made], "rank", rank)) == GB_OK &&
            (st = gb_record_set_axis(&c[made], "host", host)) == GB_OK)
            st = gb_record_set_axis(&c[made], "gpu_uuid", recs[made].gpu_uuid);
    }
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (st != GB_OK || (st = gb_atomic_open(&a, path, "w")) != GB_OK)
        goto out;
    if ((st = gb_records_write_csv(a.f, c, n, axes, o->n_axes + 3)) != GB_OK)
        gb_atomic_abort(&a);
    else
        st = gb_atomic_commit(&a);
out:
    for (size_t i = 0; i < made; i++)
        gb_record_release(&c[i]);
    free(c);
    free(axes);
    return st;
}

/* run.json with its "fleet" section. */
static enum gb_status gb_fleet_run_json(const char *dir, const struct gb_run_info *info,
                                        const struct gb_fleet_part *parts, size_t n)
{
    char path[GB_PATH_MAX + 200];
    json_t *root = gb_run_info_to_json(info), *members = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(members, gb_member_to_json(&parts[i].m));
    json_object_set_new(root, "fleet", json_pack("{s:s, s:I, s:o}", "format", "gpubound-fleet/1", "size",
                                                 (json_int_t)n, "members", members));
    snprintf(path, sizeof path, "%s/run.json", dir);
    /* What the loaders could not read is not written (json_dumpb with no
     * buffer gives the size). */
    size_t need = json_dumpb(root, NULL, 0, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    enum gb_status st = need > (size_t)GB_RUN_JSON_MAX
        ? gb_error_set(GB_ERR_USAGE, "a fleet of %zu members makes a run.json of %zu bytes, more than the %ld a "
                       "run.json may hold; record the fleet in parts", n, need, GB_RUN_JSON_MAX)
        : gb_json_write_file(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(root);
    return st;
}

static enum gb_status gb_fleet_check_ranks(const struct gb_fleet_part *parts, size_t n)
{
    if (n == 0 || n > GB_FLEET_MAX_MEMBERS)
        return gb_error_set(GB_ERR_USAGE, "a fleet run has 1 to %d members, not %zu", GB_FLEET_MAX_MEMBERS, n);
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++)
            if (parts[i].m.rank == parts[k].m.rank)
                return gb_error_set(GB_ERR_USAGE, "fleet members %zu and %zu both say rank %d", i, k,
                                    parts[i].m.rank);
    return GB_OK;
}

/* Every part's records through the run writer into `dir`; the copies
 * written (with their fleet fields) in *all. */
static enum gb_status gb_fleet_records(const char *dir, const struct gb_fleet_part *parts, size_t n,
                                       const struct gb_fleet_write_opts *o, const struct gb_run_info *info,
                                       struct gb_record **all, size_t *n_all)
{
    struct gb_run_writer *w = NULL;
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += parts[i].n_records;
    if (!(*all = calloc(total + 1, sizeof **all)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    enum gb_status st = gb_run_writer_open(dir, info, o->axes, o->n_axes, &w);
    for (size_t i = 0; i < n && st == GB_OK; i++)
        for (size_t k = 0; k < parts[i].n_records && st == GB_OK; k++)
            if ((st = gb_fleet_record(&parts[i].records[k], &parts[i].m, &(*all)[*n_all])) == GB_OK) {
                (*n_all)++;
                st = gb_run_writer_add(w, &(*all)[*n_all - 1]);
            }
    enum gb_status cst = gb_run_writer_close(w, info);
    return st != GB_OK ? st : cst;
}

enum gb_status gb_fleet_write(const char *dir, const struct gb_fleet_part *parts, size_t n,
                              const struct gb_fleet_write_opts *o)
{
    struct gb_stage s;
    struct gb_run_info info;
    struct gb_record *all = NULL;
    size_t n_all = 0;
    enum gb_status st = gb_fleet_check_ranks(parts, n);
    if (st != GB_OK)
        return st;
    if ((st = gb_stage_open(&s, dir)) != GB_OK)
        return st;
    gb_fleet_info(parts, n, o, &info);
    if ((st = gb_fleet_records(s.tmp, parts, n, o, &info, &all, &n_all)) == GB_OK &&
        (st = gb_fleet_csv(s.tmp, all, n_all, o)) == GB_OK &&
        (st = gb_fleet_run_json(s.tmp, &info, parts, n)) == GB_OK && o->extra)
        st = o->extra(o->ctx, s.tmp);
    if (st == GB_OK)
        st = gb_stage_commit(&s);
    else
        st = gb_stage_fail(&s, st);
    for (size_t i = 0; i < n_all; i++)
        gb_record_release(&all[i]);
    free(all);
    return st;
}

/* ---- the members of a recorded run ---- */

static int gb_cmp_member(const void *a, const void *b)
{
    const struct gb_fleet_member *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The members array of `fleet` into *out. */
static enum gb_status gb_members_from(json_t *fleet, const char *path, struct gb_fleet_member **out, size_t *n)
{
    char why[1536], where[64];
    json_t *arr = json_is_object(fleet) ? json_object_get(fleet, "members") : NULL, *v;
    size_t i;
    if (!json_is_array(arr) || json_array_size(arr) == 0 || json_array_size(arr) > GB_FLEET_MAX_MEMBERS)
        return gb_error_set(GB_ERR_FORMAT, "%s: $.fleet.members is not an array of 1 to %d members", path,
                            GB_FLEET_MAX_MEMBERS);
    struct gb_fleet_member *m = calloc(json_array_size(arr), sizeof *m);
    if (!m)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    json_array_foreach(arr, i, v) {
        snprintf(where, sizeof where, "$.fleet.members[%zu]", i);
        if (gb_member_from_json(v, &m[i], path, where, why, sizeof why)) {
            free(m);
            return gb_error_set(GB_ERR_FORMAT, "%s", why);
        }
    }
    *n = json_array_size(arr);
    json_t *size = json_object_get(fleet, "size");
    if (!json_is_integer(size) || json_integer_value(size) != (json_int_t)*n) {
        free(m);
        return gb_error_set(GB_ERR_FORMAT, "%s: $.fleet.size = %lld but $.fleet.members lists %zu members: the run "
                            "contradicts itself", path, json_is_integer(size) ? (long long)json_integer_value(size) : -1LL,
                            *n);
    }
    qsort(m, *n, sizeof *m, gb_cmp_member);
    for (i = 1; i < *n; i++)
        if (m[i].rank == m[i - 1].rank) {
            int rank = m[i].rank;
            free(m);
            return gb_error_set(GB_ERR_FORMAT, "%s: $.fleet.members: rank %d is listed twice", path, rank);
        }
    *out = m;
    return GB_OK;
}

enum gb_status gb_fleet_members_load(const char *dir, struct gb_fleet_member **out, size_t *n)
{
    char path[GB_PATH_MAX + 200];
    json_error_t err;
    *out = NULL;
    *n = 0;
    snprintf(path, sizeof path, "%s/run.json", dir);
    struct stat sb;
    if (stat(path, &sb) == 0 && (!S_ISREG(sb.st_mode) || sb.st_size > (off_t)GB_RUN_JSON_MAX))
        return gb_error_set(GB_ERR_FORMAT, "%s: %s", path, S_ISREG(sb.st_mode) ? "larger than a run.json may be"
                            : "not a regular file");
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        FILE *f = fopen(path, "r");
        if (!f)
            return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        fclose(f);
        return gb_error_set(GB_ERR_FORMAT, "%s:%d:%d: %s", path, err.line, err.column, err.text);
    }
    json_t *fleet = json_object_get(root, "fleet");
    enum gb_status st = fleet ? gb_members_from(fleet, path, out, n)
                              : gb_error_set(GB_ERR_FORMAT, "%s has no \"fleet\" section: %s is not a fleet run "
                                             "(record one with 'gpubound run --fleet' or '--all-devices')",
                                             path, dir);
    json_decref(root);
    return st;
}

/* The member of rank `rank` in m[0..n) (sorted by rank), or NULL. */
static const struct gb_fleet_member *gb_member_of(const struct gb_fleet_member *m, size_t n, int rank)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m[mid].rank == rank)
            return &m[mid];
        if (m[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

enum gb_status gb_fleet_members_check(const struct gb_run *run, const struct gb_fleet_member *m, size_t n)
{
    const char *file = run->records_file[0] ? run->records_file : run->dir;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        const struct gb_fleet_member *mb = r->fleet ? gb_member_of(m, n, r->fleet_rank) : NULL;
        const char *uuid = mb && mb->info.has_device ? mb->info.device.uuid : "";
        if (!r->fleet)
            return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu] (%s/%s) has no fleet rank in a fleet run: the run "
                                "contradicts itself", file, i, r->suite, r->bench);
        if (!mb)
            return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].fleet.rank = %d is not a member of run.json's fleet "
                                "section (%zu members): the run contradicts itself", file, i, r->fleet_rank, n);
        if (strcmp(r->gpu_uuid, uuid) != 0)
            return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].fleet.gpu_uuid = \"%s\" but rank %d's GPU in run.json "
                                "is \"%s\": the run contradicts itself", file, i, r->gpu_uuid, r->fleet_rank, uuid);
        if (strcmp(r->fleet_host, mb->host) != 0)
            return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].fleet.host = \"%s\" but rank %d's host in run.json is "
                                "\"%s\": the run contradicts itself", file, i, r->fleet_host, r->fleet_rank,
                                mb->host);
    }
    return GB_OK;
}
