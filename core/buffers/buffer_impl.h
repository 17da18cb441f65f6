/*
 * core/buffers/buffer_impl.h: per-CPU principal, aggregation and
 * speculation buffers.
 *
 * Owner: core/buffers/.  Callers: the ECB walker (reserve and record), the
 * control operations (snapshots, status), the state (allocation by option).
 *
 * Each CPU has an active buffer (dtb_tomax) that only that CPU writes, in
 * probe context, and an inactive one (dtb_xamot) that the consumer reads
 * after a cross-call has swapped the two (switch policy).  The fill and ring
 * policies keep one buffer and never swap.
 */
#ifndef DTRACE_CORE_BUFFER_IMPL_H
#define DTRACE_CORE_BUFFER_IMPL_H

#include "../dtrace_abi.h"

#define DTRACEBUF_RING 0x0001	     /* ring policy */
#define DTRACEBUF_FILL 0x0002	     /* fill policy */
#define DTRACEBUF_NOSWITCH 0x0004    /* never swap (aggregation, ring, fill) */
#define DTRACEBUF_WRAPPED 0x0008     /* ring has wrapped */
#define DTRACEBUF_DROPPED 0x0010     /* a drop happened */
#define DTRACEBUF_FULL 0x0020	     /* fill policy: buffer full */
#define DTRACEBUF_CONSUMED 0x0040    /* inactive half consumed */
#define DTRACEBUF_INACTIVE 0x0080    /* not yet allocated for this CPU */

typedef struct dtrace_buffer {
	uint64_t dtb_offset;	     /* next free byte in dtb_tomax */
	uint64_t dtb_size;	     /* bytes in each of tomax and xamot */
	uint32_t dtb_flags;	     /* DTRACEBUF_* */
	uint64_t dtb_drops;	     /* records dropped since last swap */
	char *dtb_tomax;	     /* active: written in probe context */
	char *dtb_xamot;	     /* inactive: read by the consumer */
	uint32_t dtb_xamot_flags;
	uint64_t dtb_xamot_drops;
	uint64_t dtb_xamot_offset;
	uint32_t dtb_errors;	     /* ERROR records that could not be written */
	uint32_t dtb_xamot_errors;
	uint64_t dtb_switched;	     /* gethrtime of the last swap */
	uint64_t dtb_interval;	     /* ns between the last two swaps */
} dtrace_buffer_t;

#endif /* DTRACE_CORE_BUFFER_IMPL_H */
