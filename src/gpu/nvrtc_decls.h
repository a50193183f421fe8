/* nvrtc_decls.h - the part of NVRTC's API that gpubound uses (nvrtc.c,
 * nvrtc_info.c): <nvrtc.h> in a build with the CUDA toolkit's headers, else
 * these declarations (GB_OWN_CUDA_DECLS; see gpubound/cuda_decls.h). NVRTC
 * is opened at run time; the prototypes give its table's members their
 * types. GB_CUDA_DECLS_CHECK checks them against <nvrtc.h>. */
#ifndef GB_GPU_NVRTC_DECLS_H
#define GB_GPU_NVRTC_DECLS_H

#if !defined(GB_OWN_CUDA_DECLS) && !defined(GB_CUDA_DECLS_CHECK)
#include <nvrtc.h>
#else
#include <stddef.h>

#define GB_NVRTC_CONSTANTS(X) X(NVRTC_SUCCESS, 0) X(NVRTC_ERROR_COMPILATION, 6)

#ifdef GB_CUDA_DECLS_CHECK
#define GB_NVRTC_CHECK_CONSTANT(name, value) _Static_assert((long long)(name) == (value), #name " differs from <nvrtc.h>");
GB_NVRTC_CONSTANTS(GB_NVRTC_CHECK_CONSTANT)
#undef GB_NVRTC_CHECK_CONSTANT
#else
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
#define GB_NVRTC_DEFINE_CONSTANT(name, value) name = (value),
enum { GB_NVRTC_CONSTANTS(GB_NVRTC_DEFINE_CONSTANT) };
#undef GB_NVRTC_DEFINE_CONSTANT
#endif

nvrtcResult nvrtcVersion(int *major, int *minor);
const char *nvrtcGetErrorString(nvrtcResult result);
nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int num_headers,
                               const char *const *headers, const char *const *include_names);
nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog);
nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int num_options, const char *const *options);
nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *size);
nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log);
nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *size);
nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin);
nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *size);
nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx);
nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *const name_expression);
nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog, const char *const name_expression, const char **lowered_name);

#endif
#endif
