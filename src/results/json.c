/* json.c - device sections to and from JSON, through jansson, and JSON
 * files written atomically (records: record_json.c, run.json: run_json.c,
 * each from its table). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/json.h"
#include "results/schema.h"
#include "results/validate.h"
#include "util/fs.h"

json_t *gb_json_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *gb_device_to_json(const struct gb_device_info *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "ordinal", json_integer(d->ordinal));
    json_object_set_new(o, "name", json_string(d->name));
    json_object_set_new(o, "uuid", json_string(d->uuid));
    json_object_set_new(o, "pci_bus_id", json_string(d->pci_bus_id));
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    json_object_set_new(o, "compute_capability", json_string(cc));
#define GB_DEV_INT(f) json_object_set_new(o, #f, json_integer(d->f));
    GB_DEVICE_INT_FIELDS(GB_DEV_INT)
#undef GB_DEV_INT
    json_object_set_new(o, "max_block_dim", json_pack("[iii]", d->max_block_dim[0], d->max_block_dim[1], d->max_block_dim[2]));
    json_object_set_new(o, "max_grid_dim", json_pack("[iii]", d->max_grid_dim[0], d->max_grid_dim[1], d->max_grid_dim[2]));
    json_object_set_new(o, "mem_peak_gbs", gb_json_real(d->mem_peak_gbs));
    json_object_set_new(o, "l2_bytes", json_integer(d->l2_bytes));
    json_object_set_new(o, "total_mem_bytes", json_integer(d->total_mem_bytes));
    return o;
}

/* The range of each integer device field. */
#define GB_DEV_RANGE_sm_count GB_RANGE_SM_COUNT
#define GB_DEV_RANGE_warp_size GB_RANGE_WARP_SIZE
#define GB_DEV_RANGE_max_threads_per_block GB_RANGE_THREADS_PER_BLOCK
#define GB_DEV_RANGE_max_threads_per_sm GB_RANGE_THREADS_PER_SM
#define GB_DEV_RANGE_max_blocks_per_sm GB_RANGE_BLOCKS_PER_SM
#define GB_DEV_RANGE_regs_per_sm GB_RANGE_REGS
#define GB_DEV_RANGE_regs_per_block GB_RANGE_REGS
#define GB_DEV_RANGE_max_regs_per_thread GB_RANGE_REGS_PER_THREAD
#define GB_DEV_RANGE_reg_alloc_unit GB_RANGE_REG_ALLOC_UNIT
#define GB_DEV_RANGE_smem_per_sm GB_RANGE_SMEM
#define GB_DEV_RANGE_smem_per_block GB_RANGE_SMEM
#define GB_DEV_RANGE_smem_per_block_optin GB_RANGE_SMEM
#define GB_DEV_RANGE_smem_reserved_per_block GB_RANGE_SMEM
#define GB_DEV_RANGE_smem_alloc_unit GB_RANGE_SMEM_UNIT
#define GB_DEV_RANGE_sm_clock_max_mhz GB_RANGE_MHZ
#define GB_DEV_RANGE_mem_clock_max_mhz GB_RANGE_MHZ
#define GB_DEV_RANGE_mem_bus_width_bits GB_RANGE_BUS_BITS
#define GB_DEV_RANGE_ecc_enabled GB_RANGE_FLAG
#define GB_DEV_RANGE_driver_version GB_RANGE_DRIVER_VERSION

/* max_block_dim or max_grid_dim: absent or an array of three integers. */
static int gb_dev_dims(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id, int dim[3])
{
    json_t *a = json_object_get(o, key);
    char field[160];
    if (!a || json_is_null(a))
        return 0;
    if (!json_is_array(a) || json_array_size(a) != 3) {
        snprintf(j->why, j->n, "%s: %s.%s is not an array of three integers", j->file, j->path, key);
        return -1;
    }
    for (size_t i = 0; i < 3; i++) {
        long long v;
        snprintf(field, sizeof field, "%s.%s[%zu]", j->path, key, i);
        if (gb_json_value_int(json_array_get(a, i), id, &v, j->file, field, j->why, j->n))
            return -1;
        dim[i] = (int)v;
    }
    return 0;
}

static int gb_dev_fill(const struct gb_jr *j, json_t *o, struct gb_device_info *d)
{
    char cc[16];
    long long l2, mem;
    if (!json_is_object(o)) {
        snprintf(j->why, j->n, "%s: %s is not an object", j->file, j->path);
        return -1;
    }
    if (gb_jr_str(j, o, "name", d->name, sizeof d->name, 1) ||
        gb_jr_str(j, o, "uuid", d->uuid, sizeof d->uuid, 0) ||
        gb_jr_str(j, o, "pci_bus_id", d->pci_bus_id, sizeof d->pci_bus_id, 0) ||
        gb_jr_str(j, o, "compute_capability", cc, sizeof cc, 1) ||
        gb_jr_int(j, o, "ordinal", GB_RANGE_ORDINAL, &d->ordinal))
        return -1;
    char tail;
    if (sscanf(cc, "%2d.%2d%c", &d->cc_major, &d->cc_minor, &tail) != 2 || d->cc_major < 1 ||
        d->cc_minor < 0) {
        snprintf(j->why, j->n, "%s: %s.compute_capability = \"%s\": allowed MAJOR.MINOR, each 0 to 99",
                 j->file, j->path, cc);
        return -1;
    }
#define GB_DEV_INT(f) if (gb_jr_int(j, o, #f, GB_DEV_RANGE_##f, &d->f)) return -1;
    GB_DEVICE_INT_FIELDS(GB_DEV_INT)
#undef GB_DEV_INT
    if (gb_dev_dims(j, o, "max_block_dim", GB_RANGE_BLOCK_DIM, d->max_block_dim) ||
        gb_dev_dims(j, o, "max_grid_dim", GB_RANGE_GRID_DIM, d->max_grid_dim) ||
        gb_jr_real(j, o, "mem_peak_gbs", GB_RANGE_GBS, &d->mem_peak_gbs) ||
        gb_json_range_int(o, "l2_bytes", GB_RANGE_L2_BYTES, 0, &l2, j->file, j->path, j->why, j->n) ||
        gb_json_range_int(o, "total_mem_bytes", GB_RANGE_MEM_BYTES, 0, &mem, j->file, j->path, j->why, j->n))
        return -1;
    d->l2_bytes = l2;
    d->total_mem_bytes = mem;
    return 0;
}

int gb_device_from_json(json_t *o, struct gb_device_info *d, const char *file, const char *path,
                        char *why, size_t n)
{
    const struct gb_jr j = {.file = file, .path = path, .why = why, .n = n};
    memset(d, 0, sizeof *d);
    return gb_dev_fill(&j, o, d);
}

enum gb_status gb_json_write_file(json_t *root, const char *path, size_t flags)
{
    struct gb_atomic_file a;
    enum gb_status st = gb_atomic_open(&a, path, "w");
    if (st != GB_OK)
        return st;
    errno = 0;
    if (json_dumpf(root, a.f, flags) != 0 || fputc('\n', a.f) == EOF) {
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
        gb_atomic_abort(&a);
        return st;
    }
    return gb_atomic_commit(&a);
}
