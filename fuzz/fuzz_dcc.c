/*
 * fuzz_dcc.c: libFuzzer over D source text; no input may crash, hang or leak
 * in the compiler.  Each input is compiled twice: as a script (dtrace -s,
 * keeping the DIFOs, which are then disassembled as -S does) and as a
 * command-line program (dtrace -n: the text starts with a probe
 * description).  Every probe description matches (no probe table).
 *
 * tests/userland/corpus/dcc keeps every input that once failed and a few
 * seeds; ctest replays them (userland_fuzz_replay_dcc_corpus).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
compile(const char *s, uint32_t flags)
{
	dt_copts_t o;
	dt_cprog_t *p;

	memset(&o, 0, sizeof(o));
	o.pspec = DTRACE_PROBESPEC_NAME;
	o.flags = flags;
	p = dt_compile_string(s, &o);
	if (p != NULL && !p->err.failed && (flags & DT_C_DIFV)) {
		FILE *f = fopen("/dev/null", "w");
		if (f != NULL) {
			dt_cprog_disassemble(p, f);
			fclose(f);
		}
	}
	dt_cprog_free(p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	compile(s, DT_C_DIFV);
	compile(s, DT_C_PSPEC);
	free(s);
	return 0;
}
