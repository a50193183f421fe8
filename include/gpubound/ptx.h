/* ptx.h - what a kernel's PTX says about the loads a thread keeps in flight.
 *
 * A warp waits for a global load only when an instruction needs its value,
 * so the loads the compiler can issue one after another, before the first
 * of them has to return, are in flight together. In the PTX of one entry
 * (src/analyze/ptx_inflight.c), the global loads of one basic block form a
 * group until
 *   - a load's address depends on the value of a load of the group (a
 *     pointer chase or an indirect index: it must wait for that one);
 *   - a global store, an atomic or reduction, a barrier or fence, a call,
 *     a branch or a label intervenes (a store may alias a later load, so
 *     the compiler cannot move that load above it; the rest end the block
 *     or order memory).
 * A use of a loaded value does not end the group: the compiler hoists
 * independent loads above it. Loads are the global ones (ld.global.*,
 * ldu.global, and generic ld without a state space) of any type and vector
 * width; their bytes per thread are the width times the element's size.
 * The entry's global atomics and reductions are counted too: a kernel that
 * issues them waits on the L2's atomic units, which no count of loads in
 * flight describes.
 *
 * The analysis reads PTX as the compiler front end wrote it. ptxas may
 * still move loads within a block (it does not across the ends above), so
 * the figure is the loads the program text lets overlap, not a measurement.
 * docs/models.md ("The kernel's own knee") says how CampProf's application
 * line uses it. */
#ifndef GPUBOUND_PTX_H
#define GPUBOUND_PTX_H

#include "gpubound/api.h"
#include "gpubound/status.h"

/* The largest group of global loads in flight together in one thread. */
struct gb_ptx_inflight {
    double bytes;   /* bytes per thread the group's loads read (0: no global load) */
    int loads;      /* loads in the group */
    int groups;     /* groups of one or more loads in the entry */
    int atomics;    /* global atomic and reduction instructions in the entry's text
                       (atom and red outside shared memory: a generic address may be
                       global), each counted once however often it runs */
};

/* The largest group of `ptx`'s entry `entry` (NULL or "": the first
 * .entry). GB_ERR_FORMAT when there is no such entry or its body does not
 * close. */
GB_API enum gb_status gb_ptx_inflight(const char *ptx, const char *entry, struct gb_ptx_inflight *out);

#endif
