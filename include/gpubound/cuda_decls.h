/* cuda_decls.h - the part of the CUDA driver API that gpubound uses.
 *
 * gpubound never links libcuda: it opens libcuda.so.1 at run time and
 * fills a table of entry points (gpu.h). A build with the CUDA toolkit's
 * headers takes the types from <cuda.h>. A build without them (CMake
 * option GB_CUDA_HEADERS=OFF, or no cuda.h under GB_CUDA_INCLUDE: the
 * CPU-only build for reports and models) defines GB_OWN_CUDA_DECLS and
 * takes them from here: the handle types, the constants and the
 * prototypes (for the table's types) of CUDA 12's driver API, with the
 * signatures of the headers' default (_v2) mapping, which is what
 * cuGetProcAddress hands out for API version 12000.
 *
 * With GB_CUDA_DECLS_CHECK (tests/unit/test_cuda_decls.c, a build with the
 * toolkit), the same lists are checked against <cuda.h>: each constant by
 * a static assertion, each prototype as a redeclaration, which the
 * compiler refuses unless its type is the toolkit's.
 */
#ifndef GPUBOUND_CUDA_DECLS_H
#define GPUBOUND_CUDA_DECLS_H

#if !defined(GB_OWN_CUDA_DECLS) && !defined(GB_CUDA_DECLS_CHECK)
#include <cuda.h>
#else

#include <stddef.h>
#include <stdint.h>

/* The constants gpubound uses, with their values in the driver's ABI. */
#define GB_CU_CONSTANTS(X)                                                                     \
    X(CUDA_SUCCESS, 0) X(CUDA_ERROR_OUT_OF_MEMORY, 2) X(CUDA_ERROR_ECC_UNCORRECTABLE, 214)      \
    X(CUDA_ERROR_NOT_READY, 600) X(CUDA_ERROR_ILLEGAL_ADDRESS, 700)                            \
    X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, 701) X(CUDA_ERROR_LAUNCH_TIMEOUT, 702)               \
    X(CUDA_ERROR_CONTEXT_IS_DESTROYED, 709) X(CUDA_ERROR_ASSERT, 710)                          \
    X(CUDA_ERROR_HARDWARE_STACK_ERROR, 714) X(CUDA_ERROR_ILLEGAL_INSTRUCTION, 715)             \
    X(CUDA_ERROR_MISALIGNED_ADDRESS, 716) X(CUDA_ERROR_INVALID_ADDRESS_SPACE, 717)             \
    X(CUDA_ERROR_INVALID_PC, 718) X(CUDA_ERROR_LAUNCH_FAILED, 719)                             \
    X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1) X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 2)  \
    X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 3) X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 4)        \
    X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 5) X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 6)          \
    X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 7) X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 8) \
    X(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 10) X(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 12)    \
    X(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 13) X(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 16)      \
    X(CU_DEVICE_ATTRIBUTE_ECC_ENABLED, 32) X(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 36)        \
    X(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 37) X(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 38) \
    X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 39)                                  \
    X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 75)                                        \
    X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 76)                                        \
    X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 81)                            \
    X(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 82)                                \
    X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 97)                               \
    X(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 106)                                  \
    X(CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, 108)                                   \
    X(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, 111)                               \
    X(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0) X(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 1)    \
    X(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 3) X(CU_FUNC_ATTRIBUTE_NUM_REGS, 4)                  \
    X(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 8)                                      \
    X(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 9)                                   \
    X(CU_FUNC_CACHE_PREFER_NONE, 0) X(CU_FUNC_CACHE_PREFER_SHARED, 1)                          \
    X(CU_FUNC_CACHE_PREFER_L1, 2) X(CU_FUNC_CACHE_PREFER_EQUAL, 3)                             \
    X(CU_SHAREDMEM_CARVEOUT_DEFAULT, -1) X(CU_SHAREDMEM_CARVEOUT_MAX_L1, 0)                    \
    X(CU_SHAREDMEM_CARVEOUT_MAX_SHARED, 100) X(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 6)           \
    X(CU_EVENT_DEFAULT, 0) X(CU_EVENT_BLOCKING_SYNC, 1) X(CU_EVENT_DISABLE_TIMING, 2)          \
    X(CU_STREAM_DEFAULT, 0) X(CU_STREAM_NON_BLOCKING, 1) X(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL, 1) \
    X(CU_MEMHOSTALLOC_PORTABLE, 1) X(CU_GET_PROC_ADDRESS_DEFAULT, 0)

#ifdef GB_CUDA_DECLS_CHECK
#define GB_CU_CHECK_CONSTANT(name, value) _Static_assert((long long)(name) == (value), #name " differs from <cuda.h>");
GB_CU_CONSTANTS(GB_CU_CHECK_CONSTANT)
#undef GB_CU_CHECK_CONSTANT
#else
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUuuid_st {
    char bytes[16];
} CUuuid;
typedef uint64_t cuuint64_t;
/* The driver's enumerations, passed as int (the size of an enum in its ABI). */
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef int CUfunc_cache;
typedef int CUlimit;
typedef int CUstreamCaptureMode;
typedef int CUdriverProcAddressQueryResult;
#define GB_CU_DEFINE_CONSTANT(name, value) name = (value),
enum { GB_CU_CONSTANTS(GB_CU_DEFINE_CONSTANT) };
#undef GB_CU_DEFINE_CONSTANT
#endif

/* The prototypes of the entry points gpu.h's table holds (never linked:
 * they give the table's members their types). */
CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int *version);
CUresult cuGetErrorString(CUresult error, const char **str);
CUresult cuGetErrorName(CUresult error, const char **str);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxSynchronize(void);
CUresult cuCtxGetLimit(size_t *value, CUlimit limit);
CUresult cuCtxSetLimit(CUlimit limit, size_t value);
CUresult cuCtxResetPersistingL2Cache(void);
CUresult cuStreamQuery(CUstream stream);
CUresult cuEventQuery(CUevent event);
CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytes);
CUresult cuMemFree(CUdeviceptr dptr);
CUresult cuMemGetInfo(size_t *free_bytes, size_t *total_bytes);
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes);
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes);
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes, CUstream stream);
CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes, CUstream stream);
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream);
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, CUstream stream);
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t n, CUstream stream);
CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned int flags);
CUresult cuMemFreeHost(void *p);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleUnload(CUmodule module);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule module, const char *name);
CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule module, const char *name);
CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction f);
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attrib, int value);
CUresult cuFuncSetCacheConfig(CUfunction f, CUfunc_cache config);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int shared_bytes, CUstream stream,
                        void **params, void **extra);
CUresult cuStreamCreate(CUstream *stream, unsigned int flags);
CUresult cuStreamDestroy(CUstream stream);
CUresult cuStreamSynchronize(CUstream stream);
CUresult cuStreamBeginCapture(CUstream stream, CUstreamCaptureMode mode);
CUresult cuStreamEndCapture(CUstream stream, CUgraph *graph);
CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph, unsigned long long flags);
CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream);
CUresult cuGraphExecDestroy(CUgraphExec exec);
CUresult cuGraphDestroy(CUgraph graph);
CUresult cuEventCreate(CUevent *event, unsigned int flags);
CUresult cuEventDestroy(CUevent event);
CUresult cuEventRecord(CUevent event, CUstream stream);
CUresult cuEventSynchronize(CUevent event);
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f, int block_size,
                                                     size_t dynamic_smem);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, CUfunction f, int block_size,
                                                              size_t dynamic_smem, unsigned int flags);

#endif /* own declarations */
#endif
