/* nvml.c - clocks and the driver release through NVML, opened at run time.
 * NVML is optional: without it clocks read 0 and the run says so. Only the
 * few entry points used are declared here, with NVML's documented ABI. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_internal.h"

typedef int gb_nvml_return;           /* nvmlReturn_t; 0 = NVML_SUCCESS */
typedef struct gb_nvml_device *gb_nvml_dev;
#define GB_NVML_CLOCK_SM 1

static struct {
    int tried, ok;
    gb_nvml_return (*init)(void);
    gb_nvml_return (*by_pci)(const char *, gb_nvml_dev *);
    gb_nvml_return (*clock)(gb_nvml_dev, int, unsigned *);
    gb_nvml_return (*driver)(char *, unsigned);
} nv;

static int gb_nvml_open(void)
{
    if (nv.tried)
        return nv.ok;
    nv.tried = 1;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    *(void **)&nv.init = dlsym(lib, "nvmlInit_v2");
    *(void **)&nv.by_pci = dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&nv.clock = dlsym(lib, "nvmlDeviceGetClockInfo");
    *(void **)&nv.driver = dlsym(lib, "nvmlSystemGetDriverVersion");
    if (!nv.init || !nv.by_pci || !nv.clock || !nv.driver || nv.init() != 0)
        return 0;
    nv.ok = 1;
    return 1;
}

int gb_nvml_sm_clock_mhz(const char *pci_bus_id)
{
    gb_nvml_dev d;
    unsigned mhz = 0;
    if (!gb_nvml_open() || nv.by_pci(pci_bus_id, &d) != 0 || nv.clock(d, GB_NVML_CLOCK_SM, &mhz) != 0)
        return 0;
    return (int)mhz;
}

void gb_nvml_driver_release(char *buf, size_t n)
{
    buf[0] = '\0';
    if (gb_nvml_open() && nv.driver(buf, (unsigned)n) != 0)
        buf[0] = '\0';
}
