/* cmd_geometry.h - `gpubound geometry`: its usage and help, registered in
 * the command table of main.c. The class names listed here are checked
 * against the class table of src/models/geometry/geometry.c by
 * tests/unit/test_geometry.c. */
#ifndef GB_CMD_GEOMETRY_H
#define GB_CMD_GEOMETRY_H

#define GB_GEOMETRY_USAGE                                                                      \
    "gpubound geometry RUN_DIR (--bench B | --class C | --all | --compare A,B) [--size S]\n"    \
    "                  [--cache C] [--shapes] [--format table|csv|json]\n"                      \
    "gpubound geometry --classes [--format table|csv|json]"

#define GB_GEOMETRY_HELP                                                                        \
    "  --bench B       one benchmark of the ubench suite (ubench0 .. ubench14, cannon_direct,\n"  \
    "                  cannon_shifted), or of a kernel spec whose axes include block_size_x\n"  \
    "                  (and block_size_y; its problem axis n is the size), e.g. the stencil\n"  \
    "                  example: gpubound geometry RUN --bench stencil\n"                         \
    "  --class C       the benches of one class of the paper's kernels, taken together (below)\n" \
    "  --all           the table of good shapes: one row per bench, size and cache\n"           \
    "  --compare A,B   bench B's best shape against bench A's, per size and cache, and the\n"   \
    "                  reduction in time 1 - best(B) / best(A) (the Cannon case study:\n"      \
    "                  --compare cannon_direct,cannon_shifted)\n"                               \
    "  --size S        only data size S: small, medium or large (default: every size in the run)\n" \
    "  --cache C       only L1/shared configuration C: min, default or max (default: every one)\n" \
    "  --shapes        every shape, one row each with its mark, instead of the recommendation\n" \
    "  --format FMT    table (default), or csv or json: one row per bench (or class), size and\n" \
    "                  cache (or, with --shapes, per shape)\n"                                   \
    "  --classes       list the classes, their benches and where the paper describes them\n"   \
    "Reads a run directory recorded by 'gpubound run ubench' (no GPU needed). For each bench or\n" \
    "class, data size and cache configuration it ranks the block shapes rows x cols (blockDim.y\n" \
    "x blockDim.x) by median time and recommends those within 5% of the best, fastest first.\n"  \
    "It sets them beside 'maximize occupancy' (the best and the worst shape that reaches\n"      \
    "maximum occupancy, relative to the best, and whether reaching it is necessary or\n"         \
    "sufficient for a recommended shape) and 'square blocks' (the fastest shape nearest to\n"    \
    "square for its thread count). A class divides each bench's times by that bench's best and\n" \
    "ranks shapes by the geometric mean over its benches. Points that failed or were skipped\n"  \
    "are ignored and counted. docs/models.md ('geometry advisor') explains the output.\n"       \
    "Classes: scheduling coalesced-write overload non-coalesced coalesced-read block-reuse\n"    \
    "  traverse cannon write-I write-II write-III write-IV write-V read-none read-A read-B\n"   \
    "  read-C read-D load-low shape-reuse ubench\n"                                             \
    "Exit 0 on success, 1 when the run directory is missing or malformed, 2 on a usage error\n" \
    "(an unknown bench or class, a bad size or cache, a run without ubench records).\n"         \
    "Example: gpubound geometry runs/ub --bench ubench1 --size large --cache default\n"         \
    "Example: gpubound geometry runs/ub --class coalesced-write --size large\n"                 \
    "Example: gpubound geometry runs/ub --all --format csv > good-shapes.csv\n"

#endif
