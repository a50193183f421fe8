/* cuda_api.c - the CUDA driver, opened at run time.
 *
 * Only libcuda.so.1 is tried: the unversioned libcuda.so may be the
 * toolkit's stub, which loads and then fails every call. Entry points come
 * through cuGetProcAddress with an explicit API version, so the table holds
 * the same versions whatever driver is installed (like NCCL's loader).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/gpu.h"

/* The API version asked of cuGetProcAddress: 12.0, which every function in
 * the table has with the signature of the headers' default mapping. */
#define GB_CUDA_API_VERSION 12000

static struct gb_cuda_api gb_api;
const struct gb_cuda_api *gb_cu;

static enum gb_status gb_load_state = GB_ERR_NO_GPU;
static int gb_load_tried;
static char gb_load_msg[512];

typedef CUresult (*gb_get_proc_fn)(const char *, void **, int, cuuint64_t,
                                   CUdriverProcAddressQueryResult *);

static enum gb_status gb_cuda_load_once(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return gb_error_set(GB_ERR_NO_GPU, "no CUDA driver (libcuda.so.1 not found: %s)", dlerror());
    gb_get_proc_fn get = (gb_get_proc_fn)dlsym(lib, "cuGetProcAddress_v2");
    if (!get)
        return gb_error_set(GB_ERR_NO_GPU,
                            "the CUDA driver is too old (no cuGetProcAddress_v2; a CUDA 12 or newer driver is needed)");
    CUdriverProcAddressQueryResult q;
#define GB_CUDA_LOAD(name)                                                                 \
    if (get(#name, (void **)&gb_api.name, GB_CUDA_API_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, \
            &q) != CUDA_SUCCESS || !gb_api.name)                                           \
        return gb_error_set(GB_ERR_NO_GPU, "the CUDA driver lacks %s (status %d); update the driver", \
                            #name, (int)q);
    GB_CUDA_FUNCS(GB_CUDA_LOAD)
#undef GB_CUDA_LOAD
    CUresult r = gb_api.cuInit(0);
    if (r != CUDA_SUCCESS) {
        const char *s = NULL;
        gb_api.cuGetErrorString(r, &s);
        return gb_error_set(GB_ERR_NO_GPU, "the CUDA driver found no usable GPU (cuInit: %s)",
                            s ? s : "unknown error");
    }
    int n = 0;
    if (gb_api.cuDeviceGetCount(&n) != CUDA_SUCCESS || n == 0)
        return gb_error_set(GB_ERR_NO_GPU, "the CUDA driver reports no GPU");
    gb_cu = &gb_api;
    return GB_OK;
}

enum gb_status gb_cuda_load(void)
{
    if (!gb_load_tried) {
        gb_load_tried = 1;
        gb_load_state = gb_cuda_load_once();
        if (gb_load_state != GB_OK)
            snprintf(gb_load_msg, sizeof gb_load_msg, "%s", gb_error_message());
    }
    if (gb_load_state != GB_OK)
        return gb_error_set(gb_load_state, "%s", gb_load_msg);
    return GB_OK;
}

int gb_cuda_sticky(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
        return 1;
    default:
        return 0;
    }
}

enum gb_status gb_cuda_fail(CUresult r, const char *call, const char *file, int line)
{
    const char *name = NULL, *str = NULL;
    if (gb_cu) {
        gb_cu->cuGetErrorName(r, &name);
        gb_cu->cuGetErrorString(r, &str);
    }
    /* Keep only the function's name of the call expression. */
    char fn[96];
    size_t i = 0;
    const char *c = call;
    const char *arrow = strstr(call, "->");
    if (arrow)
        c = arrow + 2;
    while (c[i] && c[i] != '(' && i + 1 < sizeof fn) {
        fn[i] = c[i];
        i++;
    }
    fn[i] = '\0';
    enum gb_status st = r == CUDA_ERROR_OUT_OF_MEMORY ? GB_ERR_DEVICE_OOM
                        : gb_cuda_sticky(r)          ? GB_ERR_DEVICE_LOST
                                                     : GB_ERR_CUDA;
    return gb_error_set(st, "%s failed at %s:%d: %s (%s)", fn, file, line,
                        str ? str : "unknown error", name ? name : "?");
}
