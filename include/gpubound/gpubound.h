/* gpubound.h - the whole public API of libgpubound in one include:
 * every header of include/gpubound/. A program may include only the
 * headers it uses instead; each stands alone. */
#ifndef GPUBOUND_GPUBOUND_H
#define GPUBOUND_GPUBOUND_H

#include "gpubound/analyze.h"
#include "gpubound/band.h"
#include "gpubound/breakdown_chart.h"
#include "gpubound/camp_counts.h"
#include "gpubound/camp_detect.h"
#include "gpubound/campprof.h"
#include "gpubound/cexpr.h"
#include "gpubound/chart_spec.h"
#include "gpubound/compare.h"
#include "gpubound/compare_report.h"
#include "gpubound/counters.h"
#include "gpubound/device.h"
#include "gpubound/export.h"
#include "gpubound/fleet.h"
#include "gpubound/fleet_loop.h"
#include "gpubound/geometry.h"
#include "gpubound/geometry_tables.h"
#include "gpubound/gpu.h"
#include "gpubound/lpbm.h"
#include "gpubound/lpbm_input.h"
#include "gpubound/lpbm_run.h"
#include "gpubound/measure.h"
#include "gpubound/ncu.h"
#include "gpubound/nnls.h"
#include "gpubound/occupancy.h"
#include "gpubound/plot.h"
#include "gpubound/regress.h"
#include "gpubound/report.h"
#include "gpubound/report_html.h"
#include "gpubound/results.h"
#include "gpubound/session.h"
#include "gpubound/spec.h"
#include "gpubound/speedup.h"
#include "gpubound/status.h"
#include "gpubound/suite.h"
#include "gpubound/table.h"

#endif
