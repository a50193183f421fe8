/* cmd_occupancy.h - `gpubound occupancy`: its usage and help, registered in
 * the command table of main.c. */
#ifndef GB_CMD_OCCUPANCY_H
#define GB_CMD_OCCUPANCY_H

#define GB_OCCUPANCY_USAGE                                                                      \
    "gpubound occupancy --threads N --regs R --smem BYTES [--dyn-smem BYTES] [--carveout PCT]\n" \
    "                   [--max-dyn-smem BYTES|default] [--cc X.Y | --device N]\n"             \
    "                   [--format table|csv|json]"

#define GB_OCCUPANCY_HELP                                                                        \
    "  --threads N        threads per block (1 to the device's maximum, 1024)\n"                    \
    "  --regs R           registers per thread, as compiled (0 to 255)\n"                           \
    "  --smem BYTES       static shared memory per block (0 to 49152)\n"                            \
    "  --dyn-smem BYTES   dynamic shared memory per block at launch (default 0); without\n"        \
    "                     --max-dyn-smem the kernel is taken to have opted in to exactly this\n"   \
    "                     much\n"                                                                   \
    "  --max-dyn-smem B   the kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (what\n"   \
    "                     cudaFuncSetAttribute set), or 'default' for a kernel that never set\n"  \
    "                     it (the block's limit without opt-in minus --smem); above that\n"      \
    "                     default it is the opt-in, and a launch asking more --dyn-smem than it\n" \
    "                     fits 0 blocks; below the default it lowers nothing (as the driver\n"   \
    "                     answers: tests/data/occupancy/h200-attribute.csv). The\n"              \
    "                     dynamic shared memory sweep then holds the attribute\n"                \
    "  --carveout PCT     preferred shared-memory carveout, percent of the SM's maximum\n"         \
    "                     (0 to 100, or -1 for the driver's default, the default)\n"               \
    "  --cc X.Y           use the built-in limits of compute capability X.Y, no GPU needed\n"      \
    "                     (7.0 7.2 7.5 8.0 8.6 8.7 8.9 9.0 10.0 12.0)\n"                          \
    "  --device N         use the limits of GPU N (the default, device 0)\n"                       \
    "  --format FMT       table (default), or csv or json: one row for the configuration\n"      \
    "                     asked, then one per point of the three sweeps\n"                         \
    "Computes what cudaOccupancyMaxActiveBlocksPerMultiprocessor would answer: active blocks\n"  \
    "and warps per SM, the occupancy, and which limit binds (warps, registers, shared memory,\n"  \
    "blocks), using the hardware's allocation granularities. Then, like the CUDA Occupancy\n"    \
    "Calculator, shows active warps per SM as threads per block, registers per thread and\n"     \
    "dynamic shared memory each vary with the other inputs held.\n"                              \
    "Exit 0 on success, 2 on a usage error, 3 without a usable GPU when the limits come from a\n" \
    "device (--device N, or device 0 when --cc is not given).\n"                                  \
    "Example: gpubound occupancy --cc 9.0 --threads 256 --regs 32 --smem 0\n"                   \
    "Example: gpubound occupancy --cc 9.0 --threads 128 --regs 64 --smem 12288 --carveout 50\n" \
    "Example: gpubound occupancy --cc 9.0 --threads 256 --regs 32 --smem 0 --dyn-smem 65536 \\\n" \
    "             --max-dyn-smem default\n"

#endif
