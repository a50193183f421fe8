/* cmd_kt.h - `gpubound export` and `gpubound import`: Kernel Tuner's
 * files (src/results/kt_formats.h); their usage and help, registered in
 * the command table of main.c. */
#ifndef GB_CMD_KT_H
#define GB_CMD_KT_H

int gb_cmd_export(int argc, char **argv);
int gb_cmd_import(int argc, char **argv);

#define GB_EXPORT_USAGE "gpubound export RUN --format t4|kt-cache [--bench NAME] [--out FILE]"

#define GB_EXPORT_HELP                                                                             \
    "  --format FMT    kt-cache: Kernel Tuner's cache file (device_name, kernel_name,\n"          \
    "                  problem_size, tune_params_keys, tune_params, objective, and an entry per\n" \
    "                  configuration keyed by its parameter values, \"v1,v2,...\": the values,\n" \
    "                  time (ms), times, compile/verification/benchmark/framework times), which\n" \
    "                  Kernel Tuner resumes from and replays in its simulation mode;\n"           \
    "                  t4: Kernel Tuner's T4 results file (schema_version, results: configuration,\n" \
    "                  times, invalidity, correctness, measurements, objectives)\n"                \
    "  --bench NAME    the bench to export (default: the run's only one); its axes are the\n"   \
    "                  tuning parameters (fix the problem size with a run of one size)\n"         \
    "  --out FILE      write FILE (default: stdout): never inside RUN (refused, exit 2), nor\n"   \
    "                  over a FIFO or device (refused, exit 2); a link there is replaced\n"        \
    "A point's time is its median (ms); its kept samples are the times; a failed point is\n"      \
    "Kernel Tuner's RuntimeFailedConfig or CompilationFailedConfig, a skipped one InvalidConfig.\n" \
    "Exit 1 when the run cannot be read (missing, damaged or malformed) or FILE cannot be\n"     \
    "written (nothing is: it is written aside and moved into place); 2 when the bench is not\n"  \
    "in the run, an option is given twice or --out is refused.\n"                                 \
    "Example: gpubound export runs/sweep --format kt-cache --bench tiled --out cache.json\n"

#define GB_IMPORT_USAGE "gpubound import KT_CACHE --out RUN"

#define GB_IMPORT_HELP                                                                             \
    "  --out RUN       the run directory to make (new, or empty)\n"                               \
    "Makes an ordinary run of a Kernel Tuner cache file: one record per configuration (suite\n"   \
    "kernel-tuner, bench the kernel's name, an axis per tuning parameter). Its times are Kernel\n" \
    "Tuner's summaries: the median is Kernel Tuner's time, the mean of its event-timed launches,\n" \
    "and its times are the samples; every record's time_source says kernel-tuner-mean, run.json's\n" \
    "command line says so, and kt-import.json names the cache, device and problem size. Failed\n" \
    "configurations are records that failed (InvalidConfig: skipped). Each entry is held to the\n" \
    "ranges a run is read with (docs/validation.md): a time over a day, a kernel or parameter\n"  \
    "name with a control character or a path separator, a value with a control character is\n"   \
    "refused.\n"                                                                                  \
    "Exit 1 when the file is not a Kernel Tuner cache or an entry is refused (one line names the\n" \
    "file, the entry and the field; nothing is written); 2 when --out is refused.\n"            \
    "Example: gpubound import cache.json --out runs/kt\n"
#endif
