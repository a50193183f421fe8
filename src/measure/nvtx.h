/* nvtx.h - NVTX ranges around each point's work, named after the point
 * ("bandwidth/read width=16 grid=stride bytes=2G", gb_session_point_label),
 * so that Nsight Systems' timeline and ncu's --nvtx-include filters see
 * gpubound's structure. NVTX v3 is header-only (the toolkit's
 * nvtx3/nvToolsExt.h): it loads a tool's injection library at run time
 * when one is attached (NVTX_INJECTION64_PATH, set by nsys and ncu) and
 * costs a branch otherwise. Built without those headers (GB_HAVE_NVTX
 * unset) the calls do nothing. Not thread-safe: one range stack, the
 * measuring thread's. */
#ifndef GB_MEASURE_NVTX_H
#define GB_MEASURE_NVTX_H

/* Opens a range named `name` (copied by NVTX) on the calling thread. */
void gb_nvtx_push(const char *name);

/* Closes the innermost range opened by gb_nvtx_push. */
void gb_nvtx_pop(void);

/* 1 when this build emits NVTX ranges, 0 when they are compiled out. */
int gb_nvtx_enabled(void);

#endif
