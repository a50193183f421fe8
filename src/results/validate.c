/* validate.c - the range table of every number read from a file, and the
 * checks every loader uses (validate.h). */
#include "results/validate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds come from the hardware (CUDA's limits on every compute capability
 * up to 12.x, with headroom) or from what a measurement can be: a kernel
 * time is between 0 and a day, a launch moves at most an exabyte. Integer
 * bounds keep the products the models form (threads per SM times blocks,
 * grid times block) inside 64 bits, and the int fields inside int. */
static const struct gb_range gb_ranges[GB_RANGE_COUNT] = {
    [GB_RANGE_SAMPLES] = {"samples", 1, 0, 1e9, "timed samples of a point"},
    [GB_RANGE_BATCH] = {"batch", 1, 0, 1e7, "launches per timed sample"},
    [GB_RANGE_FLAG] = {"flag", 1, 0, 1, "0 or 1 (false or true)"},
    [GB_RANGE_TIME_NS] = {"time_ns", 0, 0, 8.64e13, "a time in ns, at most a day"},
    [GB_RANGE_BYTES] = {"bytes", 0, 0, 1e18, "bytes per launch"},
    [GB_RANGE_FLOPS] = {"flops", 0, 0, 1e21, "operations per launch"},
    [GB_RANGE_GBS] = {"GB/s", 0, 0, 1e7, "1e9 bytes per second"},
    [GB_RANGE_GFLOPS] = {"GFLOP/s", 0, 0, 1e9, "1e9 operations per second"},
    [GB_RANGE_MHZ] = {"MHz", 0, 0, 1e5, "a clock in MHz"},
    [GB_RANGE_SECONDS] = {"seconds", 0, 0, 3.2e7, "seconds, at most a year"},
    [GB_RANGE_METRIC] = {"metric", 0, -1e300, 1e300, "a finite number"},
    [GB_RANGE_POINTS] = {"points", 1, 0, 1e9, "points of a run"},
    [GB_RANGE_MODULES] = {"modules", 1, 0, 1e9, "NVRTC modules of a run"},
    [GB_RANGE_ORDINAL] = {"ordinal", 1, 0, 1023, "a device ordinal"},
    [GB_RANGE_SM_COUNT] = {"sm_count", 1, 0, 4096, "SMs of a device; 0 when unknown"},
    [GB_RANGE_WARP_SIZE] = {"warp_size", 1, 0, 64, "threads per warp; 0 when unknown"},
    [GB_RANGE_THREADS_PER_BLOCK] = {"threads_per_block", 1, 0, 4096, "threads per block"},
    [GB_RANGE_THREADS_PER_SM] = {"threads_per_sm", 1, 0, 8192, "threads per SM"},
    [GB_RANGE_BLOCKS_PER_SM] = {"blocks_per_sm", 1, 0, 256, "resident blocks per SM"},
    [GB_RANGE_REGS] = {"registers", 1, 0, 1 << 20, "32-bit registers"},
    [GB_RANGE_REGS_PER_THREAD] = {"registers_per_thread", 1, 0, 1024, "registers per thread"},
    [GB_RANGE_REG_ALLOC_UNIT] = {"reg_alloc_unit", 1, 0, 4096, "register allocation unit"},
    [GB_RANGE_SMEM] = {"shared_memory", 1, 0, 1 << 24, "bytes of shared memory"},
    [GB_RANGE_SMEM_UNIT] = {"smem_alloc_unit", 1, 0, 1 << 16, "shared memory allocation unit"},
    [GB_RANGE_BUS_BITS] = {"bus_bits", 1, 0, 65536, "memory bus width in bits"},
    [GB_RANGE_DRIVER_VERSION] = {"driver_version", 1, 0, 1e6, "CUDA driver version (13000 for 13.0)"},
    [GB_RANGE_BLOCK_DIM] = {"block_dim", 1, 0, 4096, "threads along one block dimension"},
    [GB_RANGE_GRID_DIM] = {"grid_dim", 1, 0, 2147483647, "blocks along one grid dimension"},
    [GB_RANGE_L2_BYTES] = {"l2_bytes", 1, 0, 1LL << 34, "bytes of L2 cache"},
    [GB_RANGE_MEM_BYTES] = {"mem_bytes", 1, 0, 1LL << 50, "bytes of device memory"},
    [GB_RANGE_CC] = {"compute_capability", 1, 0, 99, "a compute capability number"},
    [GB_RANGE_COEF_NS] = {"coefficient", 0, -1e9, 1e9, "ns per instruction"},
    [GB_RANGE_STAT] = {"statistic", 0, -1e300, 1e300, "a finite number"},
    [GB_RANGE_PROB] = {"p", 0, 0, 1, "a probability"},
    [GB_RANGE_INSTR_PER_WARP] = {"instructions_per_warp", 0, 0, 1e12, "instructions per warp"},
    [GB_RANGE_WARPS] = {"warps", 0, 0, 256, "warps per SM"},
    [GB_RANGE_N_OBS] = {"n_obs", 1, 0, 1e9, "observations"},
    [GB_RANGE_LAUNCH_ID] = {"launch_id", 1, 0, 1e15, "a launch ID"},
    [GB_RANGE_NCU_BLOCK] = {"block_size", 1, 1, 4096, "threads per block"},
    [GB_RANGE_NCU_GRID] = {"grid_size", 1, 1, 70368744177664.0, "blocks per grid, at most 2^46"},
    [GB_RANGE_NCU_REGS] = {"registers_per_thread", 1, 0, 1024, "registers per thread"},
    [GB_RANGE_NCU_SMEM] = {"shared_memory", 1, 0, 1 << 24, "bytes of shared memory per block"},
    [GB_RANGE_COUNTER] = {"counter", 0, 0, 1e18, "a hardware counter of one launch: 0 to 1e18"},
    [GB_RANGE_NCU_TIME] = {"duration", 0, 1, 8.64e13,
                           "a launch's duration in ns: 1 ns, the finest ncu prints, to a day"},
    [GB_RANGE_NCU_COUNT] = {"count", 0, 0, 1e15, "requests or instructions of one launch"},
};

const struct gb_range *gb_range_get(enum gb_range_id id)
{
    return &gb_ranges[(unsigned)id < GB_RANGE_COUNT ? id : GB_RANGE_METRIC];
}

int gb_range_ok(enum gb_range_id id, double v)
{
    const struct gb_range *r = gb_range_get(id);
    return isfinite(v) && v >= r->lo && v <= r->hi && (!r->integer || v == floor(v));
}

void gb_range_why(char *why, size_t n, const char *file, const char *field, const char *value,
                  enum gb_range_id id)
{
    const struct gb_range *r = gb_range_get(id);
    snprintf(why, n, "%s: %s = %.60s: allowed %s %.17g to %.17g (%s)", file, field, value,
             r->integer ? "integers" : "numbers", r->lo, r->hi, r->what);
}

enum gb_status gb_range_error(const char *file, const char *field, const char *value,
                              enum gb_range_id id)
{
    char why[512];
    gb_range_why(why, sizeof why, file, field, value, id);
    return gb_error_set(GB_ERR_FORMAT, "%s", why);
}

enum gb_status gb_range_check(const char *file, const char *field, double v, enum gb_range_id id)
{
    char text[64];
    if (gb_range_ok(id, v))
        return GB_OK;
    snprintf(text, sizeof text, "%.17g", v);
    return gb_range_error(file, field, text, id);
}

/* The JSON value as text for a message (short). */
static void gb_json_text(json_t *v, char *buf, size_t n)
{
    if (json_is_integer(v))
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, n, "%.17g", json_real_value(v));
    else if (json_is_string(v))
        snprintf(buf, n, "\"%.40s\"", json_string_value(v));
    else if (json_is_boolean(v))
        snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
    else
        snprintf(buf, n, "%s", json_is_object(v) ? "an object" : json_is_array(v) ? "an array" : "null");
}

int gb_json_value_int(json_t *v, enum gb_range_id id, long long *out, const char *file,
                      const char *field, char *why, size_t n)
{
    char text[64];
    if (id == GB_RANGE_FLAG && json_is_boolean(v)) {
        *out = json_is_true(v);
        return 0;
    }
    if (json_is_integer(v)) {
        long long x = (long long)json_integer_value(v);
        /* Compare as integers: a double would round 2^53+1 into range. */
        const struct gb_range *r = gb_range_get(id);
        if (x >= (long long)r->lo && x <= (long long)r->hi) {
            *out = x;
            return 0;
        }
    }
    gb_json_text(v, text, sizeof text);
    gb_range_why(why, n, file, field, text, id);
    return -1;
}

/* "PATH.KEY", or "KEY" when the path is empty. */
static void gb_field_name(char *buf, size_t n, const char *path, const char *key)
{
    snprintf(buf, n, "%s%s%s", path && path[0] ? path : "", path && path[0] ? "." : "", key);
}

int gb_json_range_int(json_t *o, const char *key, enum gb_range_id id, long long absent,
                      long long *out, const char *file, const char *path, char *why, size_t n)
{
    char field[256];
    json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v)) {
        *out = absent;
        return 0;
    }
    gb_field_name(field, sizeof field, path, key);
    return gb_json_value_int(v, id, out, file, field, why, n);
}

int gb_json_range_real(json_t *o, const char *key, enum gb_range_id id, double *out,
                       const char *file, const char *path, char *why, size_t n)
{
    char field[256], text[64];
    json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (json_is_number(v) && gb_range_ok(id, json_number_value(v))) {
        *out = json_number_value(v);
        return 0;
    }
    gb_field_name(field, sizeof field, path, key);
    gb_json_text(v, text, sizeof text);
    gb_range_why(why, n, file, field, text, id);
    return -1;
}

int gb_text_range_int(const char *text, enum gb_range_id id, long long *out, const char *file,
                      const char *field, char *why, size_t n)
{
    const struct gb_range *r = gb_range_get(id);
    char *end;
    errno = 0;
    long long x = strtoll(text, &end, 10);
    if (text[0] && !*end && errno == 0 && r->integer && x >= (long long)r->lo &&
        x <= (long long)r->hi) {
        *out = x;
        return 0;
    }
    gb_range_why(why, n, file, field, text, id);
    return -1;
}
