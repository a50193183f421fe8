/* gpu_internal.h - shared between the files of src/gpu only. */
#ifndef GB_GPU_INTERNAL_H
#define GB_GPU_INTERNAL_H

#include <stddef.h>

/* NVML, opened at run time; every function fails soft (0 / "") without it. */
int gb_nvml_sm_clock_mhz(const char *pci_bus_id);
void gb_nvml_driver_release(char *buf, size_t n);

/* The on-disk module cache directory ($GPUBOUND_CACHE_DIR, else
 * $XDG_CACHE_HOME/gpubound, else $HOME/.cache/gpubound); "" if none. */
void gb_cache_dir(char *buf, size_t n);

#endif
