/* gpu_internal.h - shared between the files of src/gpu only. */
#ifndef GB_GPU_INTERNAL_H
#define GB_GPU_INTERNAL_H

#include <stddef.h>

#include "gpubound/gpu.h"

/* NVML, opened at run time; every function fails soft (0 / "") without it. */
int gb_nvml_sm_clock_mhz(const char *pci_bus_id);
void gb_nvml_driver_release(char *buf, size_t n);

/* The virtual architecture of `arch` ("sm_90" -> "compute_90") into buf
 * (nvrtc.c). */
void gb_nvrtc_virtual_arch(const char *arch, char *buf, size_t n);

/* The on-disk module cache directory ($GPUBOUND_CACHE_DIR, else
 * $XDG_CACHE_HOME/gpubound, else $HOME/.cache/gpubound); "" if none. */
void gb_cache_dir(char *buf, size_t n);

/* Unloads the modules of g's memory cache and forgets them
 * (gpu_module.c). */
void gb_gpu_unload_modules(struct gb_gpu *g);

/* Forgets g's modules without a driver call (a hung device: an unload
 * could wait). */
void gb_gpu_forget_modules(struct gb_gpu *g);

/* Launches helper kernel `kernel` of g's util module over `n` items with a
 * grid that covers the device a few times over (gpu_memory.c). */
enum gb_status gb_gpu_util_run(struct gb_gpu *g, const char *kernel, size_t n, void **args);

#endif
