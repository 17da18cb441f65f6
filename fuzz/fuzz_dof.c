/*
 * fuzz/fuzz_dof.c: libFuzzer target for DOF loading and the ECBs built
 * from it.
 *
 * Each input is a DOF image of exactly its own length.  It goes through what
 * DTRACE_CTL_ENABLE does (the loader, the options, matching against a few
 * probes, retaining) on a fresh consumer state; if it is accepted the state
 * is started (BEGIN fires), a provider's probes fire, buffers are
 * snapshotted, and the state is stopped and closed.  Nothing may crash, and
 * every allocation the core made must be freed when the state closes (the
 * test port counts them).  Inputs that do not start with a DOF header are
 * given one, so the fuzzer spends its time past the magic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace_impl.h"
#include "../tests/core/lib/nop_provider.h"

static dtrace_provider_id_t fuzz_prov;
static dtrace_id_t fuzz_probes[3];

static void
fuzz_setup(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	if (nop_start(2) != 0 || nop_register("fuzz", DTRACE_PRIV_USER, &fuzz_prov) != 0)
		abort();
	fuzz_probes[0] = dtrace_probe_create(fuzz_prov, "mod", "func", "entry", 0, NULL);
	fuzz_probes[1] = dtrace_probe_create(fuzz_prov, "mod", "func", "return", 0, NULL);
	fuzz_probes[2] = dtrace_probe_create(fuzz_prov, "lib", "other", "tick", 0, NULL);
}

static void
fuzz_run(dtrace_state_t *st)
{
	static char data[1 << 16];
	dtrace_bufdesc_t desc;
	int32_t cpu;

	if (dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL) != 0)
		return;
	for (int c = 0; c < 2; c++) {
		testport_set_cpu((dtrace_cpuid_t)c);
		for (int i = 0; i < 3; i++)
			dtrace_probe(fuzz_probes[i], 1, (uint64_t)(uintptr_t)data, 3, 4, 5);
	}
	testport_set_cpu(0);
	for (uint32_t c = 0; c < 2; c++) {
		memset(&desc, 0, sizeof(desc));
		desc.dtbd_cpu = c;
		desc.dtbd_size = sizeof(data);
		desc.dtbd_data = data;
		(void)dtrace_ctl(st, DTRACE_CTL_BUFSNAP, &desc, NULL);
		desc.dtbd_size = sizeof(data);
		(void)dtrace_ctl(st, DTRACE_CTL_AGGSNAP, &desc, NULL);
	}
	(void)dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL);
}

/* Buffers the host can actually give (the core halves sizes it cannot get,
 * but multi-gigabyte requests would only measure the host's allocator). */
static int
fuzz_sizes_reasonable(const dtrace_state_t *st)
{
	static const int sizes[] = {DTRACEOPT_BUFSIZE, DTRACEOPT_AGGSIZE, DTRACEOPT_SPECSIZE,
				    DTRACEOPT_DYNVARSIZE, DTRACEOPT_STRSIZE};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (st->dts_options[sizes[i]] > (1 << 20))
			return 0;
	}
	return st->dts_options[DTRACEOPT_NSPEC] <= 64;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	dtrace_enabling_t *enab = NULL;
	dtrace_state_t *st;
	dof_hdr_t *dof;
	uint64_t live;
	int nmatched, err;

	fuzz_setup();
	if (size < sizeof(dof_hdr_t) || size >= DTRACE_DOF_MAXSIZE)
		return 0;
	if ((dof = malloc(size)) == NULL)
		return 0;
	memcpy(dof, in, size);
	/* keep the header sane enough to get past the first checks */
	if (memcmp(dof->dofh_ident, DOF_MAG_STRING, DOF_MAG_STRLEN) != 0) {
		memcpy(dof->dofh_ident, DOF_MAG_STRING, DOF_MAG_STRLEN);
		dof->dofh_ident[DOF_ID_ENCODING] = DOF_ENCODE_NATIVE;
		dof->dofh_loadsz = size;
		dof->dofh_filesz = size;
	}

	live = testport_alloc_outstanding();
	testport_set_cpu(0);
	if (dtrace_state_open(DTRACE_PRIV_ALL, 0, &st) != 0)
		abort();

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	err = dtrace_dof_slurp(dof, size, st, &enab);
	if (err == 0 && (err = dtrace_dof_options(dof, st)) != 0)
		dtrace_enabling_destroy(enab);
	else if (err == 0 && (err = dtrace_enabling_match(enab, &nmatched)) != 0)
		dtrace_enabling_destroy(enab);
	else if (err == 0 && (err = dtrace_enabling_retain(enab)) != 0)
		dtrace_enabling_destroy(enab);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);

	if (err == 0 && fuzz_sizes_reasonable(st))
		fuzz_run(st);
	dtrace_state_close(st);
	free(dof);

	if (testport_alloc_outstanding() != live) {
		fprintf(stderr, "fuzz_dof: the core leaked %llu allocations\n",
			(unsigned long long)(testport_alloc_outstanding() - live));
		abort();
	}
	return 0;
}
