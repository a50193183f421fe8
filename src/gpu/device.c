/* device.c - a device's identity and limits, from the driver. */
#include <stdio.h>
#include <string.h>

#include "gpubound/gpu.h"
#include "gpu/gpu_internal.h"

enum gb_status gb_device_count(int *count)
{
    enum gb_status st = gb_cuda_load();
    *count = 0;
    if (st != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuDeviceGetCount(count));
out:
    return st;
}

void gb_device_arch(const struct gb_device_info *info, char *buf, size_t n)
{
    snprintf(buf, n, "sm_%d%d", info->cc_major, info->cc_minor);
}

enum gb_status gb_device_query(int ordinal, struct gb_device_info *d)
{
    enum gb_status st = gb_cuda_load();
    CUdevice dev;
    int n = 0;
    memset(d, 0, sizeof *d);
    if (st != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuDeviceGetCount(&n));
    if (ordinal < 0 || ordinal >= n)
        return gb_error_set(GB_ERR_USAGE, "no device %d (this machine has %d: 0..%d)", ordinal, n, n - 1);
    GB_CU_CHECK(st, gb_cu->cuDeviceGet(&dev, ordinal));
    d->ordinal = ordinal;
    GB_CU_CHECK(st, gb_cu->cuDeviceGetName(d->name, sizeof d->name, dev));
    CUuuid u;
    GB_CU_CHECK(st, gb_cu->cuDeviceGetUuid(&u, dev));
    const unsigned char *b = (const unsigned char *)u.bytes;
    snprintf(d->uuid, sizeof d->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    GB_CU_CHECK(st, gb_cu->cuDeviceGetPCIBusId(d->pci_bus_id, sizeof d->pci_bus_id, dev));

    struct {
        CUdevice_attribute a;
        int *dst;
    } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &d->cc_major},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &d->cc_minor},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &d->sm_count},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &d->warp_size},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &d->max_threads_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &d->max_block_dim[0]},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &d->max_block_dim[1]},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &d->max_block_dim[2]},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &d->max_grid_dim[0]},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &d->max_grid_dim[1]},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, &d->max_grid_dim[2]},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &d->max_threads_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, &d->max_blocks_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, &d->regs_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &d->regs_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, &d->smem_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &d->smem_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &d->smem_per_block_optin},
        {CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, &d->smem_reserved_per_block},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &d->mem_bus_width_bits},
        {CU_DEVICE_ATTRIBUTE_ECC_ENABLED, &d->ecc_enabled},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        GB_CU_CHECK(st, gb_cu->cuDeviceGetAttribute(attrs[i].dst, attrs[i].a, dev));
    int khz = 0, l2 = 0;
    GB_CU_CHECK(st, gb_cu->cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev));
    d->l2_bytes = l2;
    /* The clock attributes are deprecated in newer drivers; 0 means unknown. */
    if (gb_cu->cuDeviceGetAttribute(&khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev) == CUDA_SUCCESS)
        d->sm_clock_max_mhz = khz / 1000;
    khz = 0;
    if (gb_cu->cuDeviceGetAttribute(&khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, dev) == CUDA_SUCCESS)
        d->mem_clock_max_mhz = khz / 1000;
    /* Double data rate: two transfers per memory clock over the bus. */
    d->mem_peak_gbs = 2.0 * (double)khz * 1e3 * (d->mem_bus_width_bits / 8.0) / 1e9;
    size_t total = 0;
    GB_CU_CHECK(st, gb_cu->cuDeviceTotalMem(&total, dev));
    d->total_mem_bytes = (int64_t)total;
    GB_CU_CHECK(st, gb_cu->cuDriverGetVersion(&d->driver_version));
    /* Allocation granularities the driver does not report (CUDA's
     * cuda_occupancy.h): registers per warp in units of 256, shared memory
     * in units of 256 bytes up to cc 7.x and 128 bytes after. */
    d->max_regs_per_thread = 255;
    d->reg_alloc_unit = 256;
    d->smem_alloc_unit = d->cc_major <= 7 ? 256 : 128;
out:
    return st;
}
