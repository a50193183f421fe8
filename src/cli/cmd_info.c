/* cmd_info.c - `gpubound info`: the device and every limit the models use. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_roofline.h"
#include "gpubound/gpu.h"

static void gb_info_print(const struct gb_device_info *d, FILE *f)
{
    fprintf(f, "device %d: %s\n", d->ordinal, d->name);
    fprintf(f, "  %-34s %s\n", "uuid", d->uuid);
    fprintf(f, "  %-34s %s\n", "pci bus id", d->pci_bus_id);
    fprintf(f, "  %-34s %d.%d (sm_%d%d)\n", "compute capability", d->cc_major, d->cc_minor, d->cc_major, d->cc_minor);
    fprintf(f, "  %-34s %d\n", "multiprocessors (SMs)", d->sm_count);
    fprintf(f, "  %-34s %d MHz\n", "SM clock (max)", d->sm_clock_max_mhz);
    fprintf(f, "  %-34s %d MHz\n", "memory clock (max)", d->mem_clock_max_mhz);
    fprintf(f, "  %-34s %d bits\n", "memory bus width", d->mem_bus_width_bits);
    fprintf(f, "  %-34s %.1f GB/s (2 x clock x bus width)\n", "memory bandwidth (theoretical)", d->mem_peak_gbs);
    fprintf(f, "  %-34s %.2f GiB\n", "memory size", d->total_mem_bytes / 1073741824.0);
    fprintf(f, "  %-34s %s\n", "ECC", d->ecc_enabled ? "on" : "off");
    fprintf(f, "  %-34s %.1f MiB\n", "L2 cache", d->l2_bytes / 1048576.0);
    fprintf(f, "  %-34s %d\n", "warp size", d->warp_size);
    fprintf(f, "  %-34s %d\n", "max threads per SM", d->max_threads_per_sm);
    fprintf(f, "  %-34s %d\n", "max warps per SM", d->warp_size ? d->max_threads_per_sm / d->warp_size : 0);
    fprintf(f, "  %-34s %d\n", "max blocks per SM", d->max_blocks_per_sm);
    fprintf(f, "  %-34s %d\n", "max threads per block", d->max_threads_per_block);
    fprintf(f, "  %-34s %d x %d x %d\n", "max block dimensions", d->max_block_dim[0], d->max_block_dim[1], d->max_block_dim[2]);
    fprintf(f, "  %-34s %d x %d x %d\n", "max grid dimensions", d->max_grid_dim[0], d->max_grid_dim[1], d->max_grid_dim[2]);
    fprintf(f, "  %-34s %d\n", "registers per SM", d->regs_per_sm);
    fprintf(f, "  %-34s %d\n", "registers per block", d->regs_per_block);
    fprintf(f, "  %-34s %d\n", "max registers per thread", d->max_regs_per_thread);
    fprintf(f, "  %-34s %d per warp\n", "register allocation unit", d->reg_alloc_unit);
    fprintf(f, "  %-34s %d bytes\n", "shared memory per SM", d->smem_per_sm);
    fprintf(f, "  %-34s %d bytes\n", "shared memory per block", d->smem_per_block);
    fprintf(f, "  %-34s %d bytes\n", "shared memory per block (opt-in)", d->smem_per_block_optin);
    fprintf(f, "  %-34s %d bytes\n", "shared memory reserved per block", d->smem_reserved_per_block);
    fprintf(f, "  %-34s %d bytes\n", "shared memory allocation unit", d->smem_alloc_unit);
    fprintf(f, "  %-34s %d.%d\n", "CUDA driver API", d->driver_version / 1000, (d->driver_version % 1000) / 10);
}

int gb_cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {{"device", required_argument, NULL, 'd'},
                                               {"ceilings", required_argument, NULL, 'c'}, {NULL, 0, NULL, 0}};
    const char *ceilings = NULL;
    long dev = -1;
    int c;
    if ((c = gb_cli_options_once("info", argc, argv, ":d:c:", longopts, NULL)) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":d:c:", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if ((dev = gb_cli_parse_range("info", "--device", optarg, GB_RANGE_ORDINAL, 0)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 'c':
            ceilings = optarg;
            break;
        case ':':
            return gb_cli_usage("info", "%s needs a value", argv[optind - 1]);
        default:
            return gb_cli_usage("info", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gb_cli_usage("info", "unexpected argument '%s'", argv[optind]);
    if (ceilings)
        return gb_cli_ceilings_print(ceilings);
    int n = 0;
    enum gb_status st = gb_device_count(&n);
    if (st != GB_OK)
        return gb_cli_fail(st, NULL, "gpubound needs an NVIDIA GPU and its driver for this command");
    for (int i = 0; i < n; i++) {
        if (dev >= 0 && i != dev)
            continue;
        struct gb_device_info d;
        if ((st = gb_device_query(i, &d)) != GB_OK)
            return gb_cli_fail(st, "device query", NULL);
        gb_info_print(&d, stdout);
    }
    if (dev >= n)
        return gb_cli_usage("info", "no device %ld (this machine has %d)", dev, n);
    return GB_EXIT_OK;
}
