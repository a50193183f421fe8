/* samples.c - a record's individual sample times (sample_ns) in results.json:
 * written as a compact numeric array, read back with range checks.
 *
 * The array is the record's last member. Values are nanoseconds per launch,
 * in the order taken; an integral value (the CUPTI clock's timestamps) is
 * written as an integer, any other rounded to 0.001 ns (far below every
 * clock's resolution), so that a sweep of a million samples stays small. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/json.h"
#include "results/validate.h"

/* One sample as its shortest exact text: "89247", "16027.428". */
static void gb_sample_text(double v, char *buf, size_t n)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    snprintf(buf, n, "%.3f", v);
    char *e = buf + strlen(buf) - 1;
    while (*e == '0')
        *e-- = '\0';
    if (*e == '.')
        *e = '\0';
}

enum gb_status gb_record_samples_write(FILE *f, const struct gb_record *r)
{
    char num[64];
    fputs("\"sample_ns\":[", f);
    for (int i = 0; i < r->n_sample_ns; i++) {
        gb_sample_text(r->sample_ns[i], num, sizeof num);
        fprintf(f, "%s%s", i ? "," : "", num);
    }
    fputc(']', f);
    return ferror(f) ? gb_error_set(GB_ERR_IO, "cannot write the samples of %s/%s", r->suite, r->bench)
                     : GB_OK;
}

int gb_record_samples_from_json(json_t *o, struct gb_record *r, const char *file, const char *path,
                                char *why, size_t n)
{
    json_t *a = json_object_get(o, "sample_ns"), *v;
    char field[160];
    size_t i;
    if (!a || json_is_null(a))
        return 0; /* a run recorded before samples were kept, or a point not timed */
    if (!json_is_array(a)) {
        snprintf(why, n, "%s: %s.sample_ns is not an array of numbers", file, path);
        return -1;
    }
    size_t len = json_array_size(a);
    if (len == 0)
        return 0;
    if ((long long)len != (long long)r->samples) {
        snprintf(why, n, "%s: %s.sample_ns holds %zu values: samples = %d says how many there are",
                 file, path, len, r->samples);
        return -1;
    }
    if (!(r->sample_ns = malloc(len * sizeof *r->sample_ns))) {
        snprintf(why, n, "%s: %s.sample_ns: out of host memory for %zu samples", file, path, len);
        return -1;
    }
    json_array_foreach(a, i, v) {
        double x = json_is_number(v) ? json_number_value(v) : NAN;
        if (!json_is_number(v) || !gb_range_ok(GB_RANGE_TIME_NS, x)) {
            char text[64];
            snprintf(field, sizeof field, "%s.sample_ns[%zu]", path, i);
            if (json_is_number(v))
                snprintf(text, sizeof text, "%.17g", x);
            else
                snprintf(text, sizeof text, "%s", json_is_string(v) ? "a string" : "not a number");
            gb_range_why(why, n, file, field, text, GB_RANGE_TIME_NS);
            return -1; /* the caller releases the record, and with it sample_ns */
        }
        r->sample_ns[i] = x;
    }
    r->n_sample_ns = (int)len;
    return 0;
}
