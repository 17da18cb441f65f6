/*
 * tests/core/lib/spec_record.h: what the ECB walker does for
 * `speculate(id); trace(seq)` on a CPU, for the speculation tests that drive
 * core/buffers/speculation.c directly (no DOF, no probe): a SPEC_RECSIZE-byte
 * record (12-byte header with EPID 1 and the UINT64_MAX stamp a commit
 * replaces, then the 4-byte sequence number) in the speculation's buffer.
 */
#ifndef DTRACE_TEST_SPEC_RECORD_H
#define DTRACE_TEST_SPEC_RECORD_H

#include <stdbool.h>
#include <string.h>

#include "dtrace_impl.h"

#define SPEC_RECSIZE 16

/* False when the speculation refused the record or its buffer was full. */
static inline bool
spec_record(dtrace_state_t *state, dtrace_cpuid_t cpu, dtrace_specid_t id, uint32_t seq)
{
	dtrace_buffer_t *buf = dtrace_speculation_buffer(state, cpu, id);
	dtrace_rechdr_t hdr;
	intptr_t offs;

	if (buf == NULL)
		return false;
	if ((offs = dtrace_buffer_reserve(buf, SPEC_RECSIZE, 4, state, NULL)) < 0)
		return false;
	hdr.dtrh_epid = 1;
	DTRACE_RECORD_STORE_TIMESTAMP(&hdr, UINT64_MAX);
	memcpy(buf->dtb_tomax + offs, &hdr, sizeof(hdr));
	memcpy(buf->dtb_tomax + offs + 12, &seq, 4);
	buf->dtb_offset = (uint64_t)offs + SPEC_RECSIZE;
	return true;
}

#endif /* DTRACE_TEST_SPEC_RECORD_H */
