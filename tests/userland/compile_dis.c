/*
 * compile_dis.c: the -S listing (dt_dis.c) in DTrace's format, and the DIF
 * the compiler generates for representative programs, instruction for
 * instruction as DTrace's code generator and assembler produce it.
 *
 * Each program is compiled against the fixed probe list and its listing
 * compared with the one expected (the DIFO addresses masked).  The listings
 * follow DTrace's rules: a DIFO is listed when it is assembled, with the
 * type of its expression (DIFOs an action builds directly are not listed:
 * aggregation ids, printa(), an argument-less printf()); labels are not
 * instructions; offset 0 of every string table is ""; the variable table
 * names the built-ins read too, in DTrace's hash order (thread-locals,
 * globals, clause-locals); keys and arguments are all computed before the
 * tuple is pushed, strings with their size, each value first converted to
 * its prototype's type; arithmetic is 64-bit, narrowed only by casts;
 * comparisons are signed or not by DTrace's integer ranks; ?: ends its true arm
 * with a mov into the result register.
 * The format itself (column layout, notes, unknown kinds, scopes and flags)
 * is checked on a DIFO built by hand.
 */
#include <stdlib.h>

#include "compile_probes.h"
#include "ct_check.h"
#include "dt_cg.h"


/* Replace every "DIFO 0x<hex>" address by "DIFO 0x@". */
static void
mask(char *s)
{
	char *p = s, *q = s;
	while (*p != '\0') {
		if (strncmp(p, "DIFO 0x", 7) == 0) {
			p += 7;
			while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
				p++;
			memcpy(q, "DIFO 0x@", 8); /* no longer than what it replaces */
			q += 8;
			continue;
		}
		*q++ = *p++;
	}
	*q = '\0';
}

static char *
listing(const dt_cprog_t *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f == NULL)
		return NULL;
	dt_cprog_disassemble(p, f);
	fclose(f);
	mask(buf);
	return buf;
}

static void
expect_listing(const char *src, const char *want)
{
	dt_copts_t o;
	ct_opts(&o, 0);
	dt_cprog_t *p = dt_compile_string(src, &o);
	CHECK(p != NULL && !p->err.failed, "<%s>: %s", src, p ? p->err.text : "NULL");
	if (p != NULL && !p->err.failed) {
		char *got = listing(p);
		CHECK(got != NULL && strcmp(got, want) == 0, "<%s>:\n--- expected\n%s--- got\n%s", src, want,
		      got ? got : "NULL");
		free(got);
	}
	dt_cprog_free(p);
}

static const struct {
	const char *src, *want;
} cases[] = {
	{"BEGIN { x = 1; self->s = \"hello\"; this->v = arg0 * 2 + 1; }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x1\n"
	    "01: 2a050001    stgs %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"x\"\n"
	    "02: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb w    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns string (unknown) by ref (size 256)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 26000101    sets DT_STRING[1], %r1\t\t! \"hello\"\n"
	    "01: 2d050001    stts %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"s\"\n"
	    "02: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "s                500  scl tls w    string (unknown) by ref (size 256)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x2\n"
	    "02: 08010201    mul  %r1, %r2, %r1\n"
	    "03: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x1\n"
	    "04: 07010201    add  %r1, %r2, %r1\n"
	    "05: 39050001    stls %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"v\"\n"
	    "06: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "v                500  scl loc w    D type (integer) (size 8)\n"},
	{"BEGIN /arg0 > 0 && pid != 0/ { trace(execname); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x0\n"
	    "02: 0f010200    cmp  %r1, %r2\n"
	    "03: 14000006    bg   6\n"
	    "04: 0e000001    mov  %r0, %r1\n"
	    "05: 11000007    ba   7\n"
	    "06: 25000101    setx DT_INTEGER[1], %r1\t\t! 0x1\n"
	    "07: 10010000    tst  %r1\n"
	    "08: 12000014    be   20\n"
	    "09: 29011601    ldgs DT_VAR(278), %r1\t\t! DT_VAR(278) = \"pid\"\n"
	    "10: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x0\n"
	    "11: 0f010200    cmp  %r1, %r2\n"
	    "12: 1300000f    bne  15\n"
	    "13: 0e000001    mov  %r0, %r1\n"
	    "14: 11000010    ba   16\n"
	    "15: 25000101    setx DT_INTEGER[1], %r1\t\t! 0x1\n"
	    "16: 10010000    tst  %r1\n"
	    "17: 12000014    be   20\n"
	    "18: 25000101    setx DT_INTEGER[1], %r1\t\t! 0x1\n"
	    "19: 11000015    ba   21\n"
	    "20: 0e000001    mov  %r0, %r1\n"
	    "21: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "pid              116  scl glb r    D type (integer) (size 4)\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "\n"
	    "DIFO 0x@ returns string (unknown) by ref (size 256)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29011801    ldgs DT_VAR(280), %r1\t\t! DT_VAR(280) = \"execname\"\n"
	    "01: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "execname         118  scl glb r    string (unknown) by ref (size 256)\n"},
	{"BEGIN { @c[probefunc] = count(); @s = sum(arg0); printa(@c); printf(\"none\\n\"); exit(0); }",
	    "\n"
	    "DIFO 0x@ returns string (unknown) by ref (size 256)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29011401    ldgs DT_VAR(276), %r1\t\t! DT_VAR(276) = \"probefunc\"\n"
	    "01: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "probefunc        114  scl glb r    string (unknown) by ref (size 256)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x0\n"
	    "01: 23000001    ret  %r1\n"},
	{"self int t; BEGIN /execname == \"dtrace\"/ { self->t++; this->u = self->t--; }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29011801    ldgs DT_VAR(280), %r1\t\t! DT_VAR(280) = \"execname\"\n"
	    "01: 26000102    sets DT_STRING[1], %r2\t\t! \"dtrace\"\n"
	    "02: 27010200    scmp %r1, %r2\n"
	    "03: 12000006    be   6\n"
	    "04: 0e000001    mov  %r0, %r1\n"
	    "05: 11000007    ba   7\n"
	    "06: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x1\n"
	    "07: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "execname         118  scl glb r    string (unknown) by ref (size 256)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 2c050001    ldts DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"t\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 07010202    add  %r1, %r2, %r2\n"
	    "03: 2d050002    stts %r2, DT_VAR(1280)\t\t! DT_VAR(1280) = \"t\"\n"
	    "04: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "t                500  scl tls r/w  D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 2c050001    ldts DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"t\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 06010202    sub  %r1, %r2, %r2\n"
	    "03: 2d050002    stts %r2, DT_VAR(1280)\t\t! DT_VAR(1280) = \"t\"\n"
	    "04: 39050001    stls %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"u\"\n"
	    "05: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "t                500  scl tls r/w  D type (integer) (size 4)\n"
	    "u                500  scl loc w    D type (integer) (size 4)\n"},
	{"BEGIN { x = 1; x += 2; trace(-x); trace(~x); trace((char)x); trace((long)x); trace(sizeof (int)); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x1\n"
	    "01: 2a050001    stgs %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"x\"\n"
	    "02: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb w    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"x\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x2\n"
	    "02: 07010201    add  %r1, %r2, %r1\n"
	    "03: 2a050001    stgs %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"x\"\n"
	    "04: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb r/w  D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"x\"\n"
	    "01: 06000101    sub  %r0, %r1, %r1\n"
	    "02: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb r    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"x\"\n"
	    "01: 0d010001    not  %r1, %r1\n"
	    "02: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb r    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 1)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"x\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x38\n"
	    "02: 04010201    sll  %r1, %r2, %r1\n"
	    "03: 2e010201    sra  %r1, %r2, %r1\n"
	    "04: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb r    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"x\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x20\n"
	    "02: 04010201    sll  %r1, %r2, %r1\n"
	    "03: 2e010201    sra  %r1, %r2, %r1\n"
	    "04: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb r    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x4\n"
	    "01: 23000001    ret  %r1\n"},
	{"BEGIN { p = (int *)alloca(sizeof (int) * 2); trace(p + 1); trace(&p[1] - p); }",
	    "\n"
	    "DIFO 0x@ returns D type (pointer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x8\n"
	    "01: 33000000    flushts\n"
	    "02: 31000001    pushtv DT_TYPE(0), %r1\t\t! DT_TYPE(0) = D type\n"
	    "03: 2f000f01    call DIF_SUBR(15), %r1\t\t! alloca\n"
	    "04: 2a050001    stgs %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"p\"\n"
	    "05: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "p                500  scl glb w    D type (pointer) (size 8)\n"
	    "\n"
	    "DIFO 0x@ returns D type (pointer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"p\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 25000103    setx DT_INTEGER[1], %r3\t\t! 0x4\n"
	    "03: 08020302    mul  %r2, %r3, %r2\n"
	    "04: 07010201    add  %r1, %r2, %r1\n"
	    "05: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "p                500  scl glb r    D type (pointer) (size 8)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"p\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 25000103    setx DT_INTEGER[1], %r3\t\t! 0x4\n"
	    "03: 08020302    mul  %r2, %r3, %r2\n"
	    "04: 07010201    add  %r1, %r2, %r1\n"
	    "05: 29050002    ldgs DT_VAR(1280), %r2\t\t! DT_VAR(1280) = \"p\"\n"
	    "06: 06010201    sub  %r1, %r2, %r1\n"
	    "07: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x4\n"
	    "08: 0a010201    udiv %r1, %r2, %r1\n"
	    "09: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "p                500  scl glb r    D type (pointer) (size 8)\n"},
	{"BEGIN { a[\"x\", 1] = 2; trace(a[\"x\", 1] ? arg0 : arg1); trace(arg0 ^^ arg1); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x2\n"
	    "01: 26000102    sets DT_STRING[1], %r2\t\t! \"x\"\n"
	    "02: 25000103    setx DT_INTEGER[1], %r3\t\t! 0x1\n"
	    "03: 33000000    flushts\n"
	    "04: 25000204    setx DT_INTEGER[2], %r4\t\t! 0x100\n"
	    "05: 30010402    pushtr DT_TYPE(1), %r4, %r2\t! DT_TYPE(1) = string\n"
	    "06: 31000003    pushtv DT_TYPE(0), %r3\t\t! DT_TYPE(0) = D type\n"
	    "07: 36050001    stgaa %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"a\"\n"
	    "08: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "a                500  arr glb w    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 26000101    sets DT_STRING[1], %r1\t\t! \"x\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 33000000    flushts\n"
	    "03: 25000103    setx DT_INTEGER[1], %r3\t\t! 0x100\n"
	    "04: 30010301    pushtr DT_TYPE(1), %r3, %r1\t! DT_TYPE(1) = string\n"
	    "05: 31000002    pushtv DT_TYPE(0), %r2\t\t! DT_TYPE(0) = D type\n"
	    "06: 34050001    ldgaa DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"a\"\n"
	    "07: 10010000    tst  %r1\n"
	    "08: 1200000c    be   12\n"
	    "09: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "10: 0e010001    mov  %r1, %r1\n"
	    "11: 1100000d    ba   13\n"
	    "12: 29010701    ldgs DT_VAR(263), %r1\t\t! DT_VAR(263) = \"arg1\"\n"
	    "13: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "arg1             107  scl glb r    D type (integer) (size 8)\n"
	    "a                500  arr glb r    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 10010000    tst  %r1\n"
	    "02: 12000004    be   4\n"
	    "03: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x1\n"
	    "04: 29010702    ldgs DT_VAR(263), %r2\t\t! DT_VAR(263) = \"arg1\"\n"
	    "05: 10020000    tst  %r2\n"
	    "06: 12000008    be   8\n"
	    "07: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "08: 02010201    xor  %r1, %r2, %r1\n"
	    "09: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "arg1             107  scl glb r    D type (integer) (size 8)\n"},
	{"BEGIN { trace(arg0 + (arg1 + (arg2 + (arg3 + (arg4 + (arg5 + arg6)))))); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 29010702    ldgs DT_VAR(263), %r2\t\t! DT_VAR(263) = \"arg1\"\n"
	    "02: 29010803    ldgs DT_VAR(264), %r3\t\t! DT_VAR(264) = \"arg2\"\n"
	    "03: 29010904    ldgs DT_VAR(265), %r4\t\t! DT_VAR(265) = \"arg3\"\n"
	    "04: 29010a05    ldgs DT_VAR(266), %r5\t\t! DT_VAR(266) = \"arg4\"\n"
	    "05: 29010b06    ldgs DT_VAR(267), %r6\t\t! DT_VAR(267) = \"arg5\"\n"
	    "06: 29010c07    ldgs DT_VAR(268), %r7\t\t! DT_VAR(268) = \"arg6\"\n"
	    "07: 07060706    add  %r6, %r7, %r6\n"
	    "08: 07050605    add  %r5, %r6, %r5\n"
	    "09: 07040504    add  %r4, %r5, %r4\n"
	    "10: 07030403    add  %r3, %r4, %r3\n"
	    "11: 07020302    add  %r2, %r3, %r2\n"
	    "12: 07010201    add  %r1, %r2, %r1\n"
	    "13: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "arg1             107  scl glb r    D type (integer) (size 8)\n"
	    "arg2             108  scl glb r    D type (integer) (size 8)\n"
	    "arg3             109  scl glb r    D type (integer) (size 8)\n"
	    "arg4             10a  scl glb r    D type (integer) (size 8)\n"
	    "arg5             10b  scl glb r    D type (integer) (size 8)\n"
	    "arg6             10c  scl glb r    D type (integer) (size 8)\n"},
	{"BEGIN, END { trace(strlen(execname)); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29011801    ldgs DT_VAR(280), %r1\t\t! DT_VAR(280) = \"execname\"\n"
	    "01: 33000000    flushts\n"
	    "02: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x100\n"
	    "03: 30010201    pushtr DT_TYPE(1), %r2, %r1\t! DT_TYPE(1) = string\n"
	    "04: 2f000c01    call DIF_SUBR(12), %r1\t\t! strlen\n"
	    "05: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "execname         118  scl glb r    string (unknown) by ref (size 256)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29011801    ldgs DT_VAR(280), %r1\t\t! DT_VAR(280) = \"execname\"\n"
	    "01: 33000000    flushts\n"
	    "02: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x100\n"
	    "03: 30010201    pushtr DT_TYPE(1), %r2, %r1\t! DT_TYPE(1) = string\n"
	    "04: 2f000c01    call DIF_SUBR(12), %r1\t\t! strlen\n"
	    "05: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "execname         118  scl glb r    string (unknown) by ref (size 256)\n"},
	/* arguments cast to the prototype (int to int64_t); comparisons by DTrace's ranks */
	{"unsigned char c; BEGIN { x = 3; trace(lltostr(x)); trace(c > -1); trace(c > (unsigned int)1); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x3\n"
	    "01: 2a050101    stgs %r1, DT_VAR(1281)\t\t! DT_VAR(1281) = \"x\"\n"
	    "02: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                501  scl glb w    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns string (unknown) by ref (size 256)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050101    ldgs DT_VAR(1281), %r1\t\t! DT_VAR(1281) = \"x\"\n"
	    "01: 33000000    flushts\n"
	    "02: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x20\n"
	    "03: 04010201    sll  %r1, %r2, %r1\n"
	    "04: 2e010201    sra  %r1, %r2, %r1\n"
	    "05: 31000001    pushtv DT_TYPE(0), %r1\t\t! DT_TYPE(0) = D type\n"
	    "06: 2f001801    call DIF_SUBR(24), %r1\t\t! lltostr\n"
	    "07: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                501  scl glb r    D type (integer) (size 4)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"c\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0xffffffffffffffff\n"
	    "02: 0f010200    cmp  %r1, %r2\n"
	    "03: 14000006    bg   6\n"
	    "04: 0e000001    mov  %r0, %r1\n"
	    "05: 11000007    ba   7\n"
	    "06: 25000101    setx DT_INTEGER[1], %r1\t\t! 0x1\n"
	    "07: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "c                500  scl glb r    D type (integer) (size 1)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"c\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 0f010200    cmp  %r1, %r2\n"
	    "03: 15000006    bgu  6\n"
	    "04: 0e000001    mov  %r0, %r1\n"
	    "05: 11000007    ba   7\n"
	    "06: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x1\n"
	    "07: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "c                500  scl glb r    D type (integer) (size 1)\n"},
	/* a by-reference element read: created empty when absent, as DTrace does */
	{"BEGIN { b[\"x\"] = \"str\"; trace(b[\"x\"]); }",
	    "\n"
	    "DIFO 0x@ returns string (unknown) by ref (size 256)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 26000101    sets DT_STRING[1], %r1\t\t! \"str\"\n"
	    "01: 26000502    sets DT_STRING[5], %r2\t\t! \"x\"\n"
	    "02: 33000000    flushts\n"
	    "03: 25000003    setx DT_INTEGER[0], %r3\t\t! 0x100\n"
	    "04: 30010302    pushtr DT_TYPE(1), %r3, %r2\t! DT_TYPE(1) = string\n"
	    "05: 36050001    stgaa %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"b\"\n"
	    "06: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "b                500  arr glb w    string (unknown) by ref (size 256)\n"
	    "\n"
	    "DIFO 0x@ returns string (unknown) by ref (size 256)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 26000101    sets DT_STRING[1], %r1\t\t! \"x\"\n"
	    "01: 33000000    flushts\n"
	    "02: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x100\n"
	    "03: 30010201    pushtr DT_TYPE(1), %r2, %r1\t! DT_TYPE(1) = string\n"
	    "04: 34050001    ldgaa DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"b\"\n"
	    "05: 10010000    tst  %r1\n"
	    "06: 1300000b    bne  11\n"
	    "07: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x100\n"
	    "08: 3a010001    allocs %r1, %r1\n"
	    "09: 36050001    stgaa %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"b\"\n"
	    "10: 34050001    ldgaa DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"b\"\n"
	    "11: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "b                500  arr glb r/w  string (unknown) by ref (size 256)\n"},
	/* a string is an array of char: *s and s[i] load one signed byte from its address */
	{"BEGIN { trace(*\"abc\"); trace(\"abc\"[1]); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 1)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 26000101    sets DT_STRING[1], %r1\t\t! \"abc\"\n"
	    "01: 1c010001    ldsb [%r1], %r1\n"
	    "02: 23000001    ret  %r1\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 1)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 26000101    sets DT_STRING[1], %r1\t\t! \"abc\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 07010201    add  %r1, %r2, %r1\n"
	    "03: 1c010001    ldsb [%r1], %r1\n"
	    "04: 23000001    ret  %r1\n"},
	/* setopt() of a computed name: its DIFO reads the variable; the absent value is not listed */
	{"BEGIN { x = \"quiet\"; setopt(x); }",
	    "\n"
	    "DIFO 0x@ returns string (unknown) by ref (size 256)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 26000101    sets DT_STRING[1], %r1\t\t! \"quiet\"\n"
	    "01: 2a050001    stgs %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"x\"\n"
	    "02: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb w    string (unknown) by ref (size 256)\n"
	    "\n"
	    "DIFO 0x@ returns string (unknown) by ref (size 256)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"x\"\n"
	    "01: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "x                500  scl glb r    string (unknown) by ref (size 256)\n"},
	/*
	 * bit-fields as DTrace reads them: the field's bytes only (its width
	 * rounded up to 1, 2, 4 or 8 bytes) at the byte of its first bit (a D
	 * struct gives each field bytes of its own, aligned to that size);
	 * signed fields shifted up and arithmetically down, unsigned ones down
	 * and masked, a 16-bit field loaded whole; the value is as wide as
	 * the field's bytes
	 */
	{"struct bf { unsigned int a : 3; int b : 5; unsigned int c : 12; long d : 40; unsigned short w : 16; }; "
	 "BEGIN { trace(((struct bf *)arg0)->b); trace(((struct bf *)arg0)->c); trace(((struct bf *)arg0)->d); "
	 "trace(((struct bf *)arg0)->w); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 1)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 07010201    add  %r1, %r2, %r1\n"
	    "03: 1c010001    ldsb [%r1], %r1\n"
	    "04: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x3b\n"
	    "05: 04010201    sll  %r1, %r2, %r1\n"
	    "06: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x3b\n"
	    "07: 2e010201    sra  %r1, %r2, %r1\n"
	    "08: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 2)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x2\n"
	    "02: 07010201    add  %r1, %r2, %r1\n"
	    "03: 20010001    lduh [%r1], %r1\n"
	    "04: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x0\n"
	    "05: 05010201    srl  %r1, %r2, %r1\n"
	    "06: 25000202    setx DT_INTEGER[2], %r2\t\t! 0xfff\n"
	    "07: 03010201    and  %r1, %r2, %r1\n"
	    "08: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 8)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x8\n"
	    "02: 07010201    add  %r1, %r2, %r1\n"
	    "03: 22010001    ldx  [%r1], %r1\n"
	    "04: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x18\n"
	    "05: 04010201    sll  %r1, %r2, %r1\n"
	    "06: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x18\n"
	    "07: 2e010201    sra  %r1, %r2, %r1\n"
	    "08: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 2)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0xe\n"
	    "02: 07010201    add  %r1, %r2, %r1\n"
	    "03: 20010001    lduh [%r1], %r1\n"
	    "04: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"},
	/*
	 * stores into them, through . on a clause-local struct: the field's
	 * bytes loaded, its bits cleared, the value masked, shifted into place
	 * and or-ed in, the bytes stored back; += loads the field first; a
	 * 16-bit field is stored whole; the assignment has the field's size
	 */
	{"struct bf { unsigned int a : 3; int b : 5; unsigned int c : 12; long d : 40; unsigned short w : 16; }; "
	 "this struct bf s; BEGIN { this->s.c = 0x123; this->s.b += 2; this->s.w = 7; }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 2)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x123\n"
	    "01: 38050002    ldls DT_VAR(1280), %r2\t\t! DT_VAR(1280) = \"s\"\n"
	    "02: 25000103    setx DT_INTEGER[1], %r3\t\t! 0x2\n"
	    "03: 07020302    add  %r2, %r3, %r2\n"
	    "04: 20020003    lduh [%r2], %r3\n"
	    "05: 25000204    setx DT_INTEGER[2], %r4\t\t! 0xfffffffffffff000\n"
	    "06: 03030403    and  %r3, %r4, %r3\n"
	    "07: 25000304    setx DT_INTEGER[3], %r4\t\t! 0xfff\n"
	    "08: 03010404    and  %r1, %r4, %r4\n"
	    "09: 25000405    setx DT_INTEGER[4], %r5\t\t! 0x0\n"
	    "10: 04040504    sll  %r4, %r5, %r4\n"
	    "11: 01030403    or   %r3, %r4, %r3\n"
	    "12: 3d030002    sth  %r3, [%r2]\n"
	    "13: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "s                500  scl loc r    D type (struct) by ref (size 16)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 1)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 38050001    ldls DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"s\"\n"
	    "01: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x1\n"
	    "02: 07010201    add  %r1, %r2, %r1\n"
	    "03: 1c010001    ldsb [%r1], %r1\n"
	    "04: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x3b\n"
	    "05: 04010201    sll  %r1, %r2, %r1\n"
	    "06: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x3b\n"
	    "07: 2e010201    sra  %r1, %r2, %r1\n"
	    "08: 25000202    setx DT_INTEGER[2], %r2\t\t! 0x2\n"
	    "09: 07010201    add  %r1, %r2, %r1\n"
	    "10: 38050002    ldls DT_VAR(1280), %r2\t\t! DT_VAR(1280) = \"s\"\n"
	    "11: 25000003    setx DT_INTEGER[0], %r3\t\t! 0x1\n"
	    "12: 07020302    add  %r2, %r3, %r2\n"
	    "13: 1c020003    ldsb [%r2], %r3\n"
	    "14: 25000304    setx DT_INTEGER[3], %r4\t\t! 0xffffffffffffffe0\n"
	    "15: 03030403    and  %r3, %r4, %r3\n"
	    "16: 25000404    setx DT_INTEGER[4], %r4\t\t! 0x1f\n"
	    "17: 03010404    and  %r1, %r4, %r4\n"
	    "18: 25000505    setx DT_INTEGER[5], %r5\t\t! 0x0\n"
	    "19: 04040504    sll  %r4, %r5, %r4\n"
	    "20: 01030403    or   %r3, %r4, %r3\n"
	    "21: 3c030002    stb  %r3, [%r2]\n"
	    "22: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "s                500  scl loc r    D type (struct) by ref (size 16)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 2)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x7\n"
	    "01: 38050002    ldls DT_VAR(1280), %r2\t\t! DT_VAR(1280) = \"s\"\n"
	    "02: 25000103    setx DT_INTEGER[1], %r3\t\t! 0xe\n"
	    "03: 07020302    add  %r2, %r3, %r2\n"
	    "04: 3d010002    sth  %r1, [%r2]\n"
	    "05: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "s                500  scl loc r    D type (struct) by ref (size 16)\n"},
	/*
	 * comparisons signed or not by DTrace's ranks (width in bits, one more
	 * when unsigned; nothing promoted to int): a 3-bit unsigned field
	 * against an int compares signed, unsigned char against char unsigned
	 */
	{"struct bf { unsigned int a : 3; int b : 5; }; unsigned char uc; char sc; "
	 "BEGIN { trace(((struct bf *)arg0)->a < -1); trace(uc < sc); }",
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29010601    ldgs DT_VAR(262), %r1\t\t! DT_VAR(262) = \"arg0\"\n"
	    "01: 1f010001    ldub [%r1], %r1\n"
	    "02: 25000002    setx DT_INTEGER[0], %r2\t\t! 0x0\n"
	    "03: 05010201    srl  %r1, %r2, %r1\n"
	    "04: 25000102    setx DT_INTEGER[1], %r2\t\t! 0x7\n"
	    "05: 03010201    and  %r1, %r2, %r1\n"
	    "06: 25000202    setx DT_INTEGER[2], %r2\t\t! 0xffffffffffffffff\n"
	    "07: 0f010200    cmp  %r1, %r2\n"
	    "08: 1800000b    bl   11\n"
	    "09: 0e000001    mov  %r0, %r1\n"
	    "10: 1100000c    ba   12\n"
	    "11: 25000301    setx DT_INTEGER[3], %r1\t\t! 0x1\n"
	    "12: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "arg0             106  scl glb r    D type (integer) (size 8)\n"
	    "\n"
	    "DIFO 0x@ returns D type (integer) (size 4)\n"
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"uc\"\n"
	    "01: 29050102    ldgs DT_VAR(1281), %r2\t\t! DT_VAR(1281) = \"sc\"\n"
	    "02: 0f010200    cmp  %r1, %r2\n"
	    "03: 19000006    blu  6\n"
	    "04: 0e000001    mov  %r0, %r1\n"
	    "05: 11000007    ba   7\n"
	    "06: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x1\n"
	    "07: 23000001    ret  %r1\n"
	    "\n"
	    "NAME             ID   KND SCP FLAG TYPE\n"
	    "sc               501  scl glb r    D type (integer) (size 1)\n"
	    "uc               500  scl glb r    D type (integer) (size 1)\n"},
};

/* A program from a file (dtrace -s): D_NOREG carries the clause's line. */
static void
expect_noreg(void)
{
	/* eight nested operands need eight registers: DTrace has seven (%r1-%r7) */
	const char *src = "BEGIN\n{\n\ttrace(arg0 + (arg1 + (arg2 + (arg3 + (arg4 + (arg5 + (arg6 + arg7)))))));\n}\n";
	dt_copts_t o;
	dt_cprog_t *p = ct_compile_file(src, 0, "noreg.d");
	CHECK(p != NULL && p->err.failed, "eight registers: expected failure");
	if (p != NULL && p->err.failed) {
		CHECK(strcmp(dt_errtag_name(p->err.tag), "D_NOREG") == 0, "tag %s", dt_errtag_name(p->err.tag));
		CHECK(strcmp(p->err.text, "line 1: Insufficient registers to generate code") == 0, "text '%s'",
		      p->err.text);
	}
	dt_cprog_free(p);

	/* the same from -n: no line, no region (code generation follows the checks) */
	ct_opts(&o, 0);
	p = dt_compile_string("BEGIN { a[arg0, arg1, arg2, arg3, arg4, arg5, arg6] = arg7; }", &o);
	CHECK(p != NULL && p->err.failed && strcmp(p->err.text, "Insufficient registers to generate code") == 0,
	      "keys and value in eight registers: '%s'", p ? p->err.text : "NULL");
	dt_cprog_free(p);

	/* a failed program keeps the DIFOs assembled before the error: dtrace -S lists them */
	ct_opts(&o, 0);
	p = dt_compile_string("BEGIN { trace(1); } BEGIN { trace(arg0 + (arg1 + (arg2 + (arg3 + (arg4 + "
			      "(arg5 + (arg6 + arg7))))))); }",
			      &o);
	CHECK(p != NULL && p->err.failed, "second clause fails");
	if (p != NULL && p->err.failed) {
		char *got = listing(p);
		CHECK(got != NULL && strcmp(got, "\nDIFO 0x@ returns D type (integer) (size 4)\n"
						 "OFF OPCODE      INSTRUCTION\n"
						 "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x1\n"
						 "01: 23000001    ret  %r1\n") == 0,
		      "listing before the error:\n%s", got ? got : "NULL");
		free(got);
	}
	dt_cprog_free(p);
}

/* DTrace's format on a DIFO built by hand: every column, note and fallback. */
static void
test_format(void)
{
	static char strtab[] = "\0g\0odd\0u\0hi";
	dif_instr_t buf[] = {
		0x50050302, /* stga DT_VAR(1283), %r3, %r2 */
		0xff000000, /* no such opcode */
		0x31020005, /* pushtv of an unknown type kind */
		0x30000304, /* pushtr DT_TYPE(0), %r3, %r4 */
		0x2f003201, /* call of a subroutine id DTrace does not name */
		0x4e000703, /* xlate (no translator table: no note) */
		0x26000901, /* sets DT_STRING[9] */
		0x26002001, /* sets past the table: no note */
		0x25000401, /* setx past the table: no note */
		0x2c050101, /* ldts of a variable in the table under another scope: no note */
		0x2b000002, /* ldta DT_VAR(0), %r0, %r2 */
		0x01010203, /* or */
		0x24000000, /* nop */
		0x23000003, /* ret */
	};
	dtrace_difv_t vars[3];
	memset(vars, 0, sizeof(vars));
	vars[0].dtdv_name = 1;
	vars[0].dtdv_id = 1283;
	vars[0].dtdv_kind = DIFV_KIND_SCALAR;
	vars[0].dtdv_scope = DIFV_SCOPE_GLOBAL;
	vars[0].dtdv_flags = DIFV_F_REF | DIFV_F_MOD | 0x10;
	vars[0].dtdv_type.dtdt_kind = DIF_TYPE_CTF;
	vars[0].dtdv_type.dtdt_ckind = 1;
	vars[0].dtdv_type.dtdt_size = 4;
	vars[1].dtdv_name = 3;
	vars[1].dtdv_id = 0x600;
	vars[1].dtdv_kind = 7;
	vars[1].dtdv_scope = 9;
	vars[1].dtdv_type.dtdt_kind = 5;
	vars[1].dtdv_type.dtdt_ckind = 0x20;
	vars[1].dtdv_type.dtdt_size = 3;
	vars[2].dtdv_name = 7;
	vars[2].dtdv_id = 0x501;
	vars[2].dtdv_kind = DIFV_KIND_ARRAY;
	vars[2].dtdv_scope = DIFV_SCOPE_LOCAL;
	vars[2].dtdv_flags = DIFV_F_MOD;
	vars[2].dtdv_type.dtdt_kind = DIF_TYPE_STRING;
	vars[2].dtdv_type.dtdt_flags = DIF_TF_BYREF;
	vars[2].dtdv_type.dtdt_size = 256;
	uint64_t ints[] = {0};
	dt_difo_t d;
	memset(&d, 0, sizeof(d));
	d.buf = buf;
	d.len = sizeof(buf) / sizeof(buf[0]);
	d.strtab = strtab;
	d.strlen = sizeof(strtab);
	d.inttab = ints;
	d.intlen = 1;
	d.vartab = vars;
	d.varlen = 3;
	d.asrtype.dtdt_kind = DIF_TYPE_CTF;
	d.asrtype.dtdt_ckind = 6;
	d.asrtype.dtdt_flags = DIF_TF_BYUREF;
	d.asrtype.dtdt_size = 24;

	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);
	dt_dis_difo(&d, f);
	fclose(f);
	mask(got);
	const char *want = "\nDIFO 0x@ returns D type (struct) by user ref (size 24)\n"
			   "OFF OPCODE      INSTRUCTION\n"
			   "00: 50050302    stga DT_VAR(1283), %r3, %r2\t\t! DT_VAR(1283) = \"g\"\n"
			   "01: ff000000    (illegal opcode)\n"
			   "02: 31020005    pushtv DT_TYPE(2), %r5\n"
			   "03: 30000304    pushtr DT_TYPE(0), %r3, %r4\t! DT_TYPE(0) = D type\n"
			   "04: 2f003201    call DIF_SUBR(50), %r1\t\t! unknown\n"
			   "05: 4e000703    xlate DT_XLREF[7], %r3\n"
			   "06: 26000901    sets DT_STRING[9], %r1\t\t! \"hi\"\n"
			   "07: 26002001    sets DT_STRING[32], %r1\n"
			   "08: 25000401    setx DT_INTEGER[4], %r1\n"
			   "09: 2c050101    ldts DT_VAR(1281), %r1\n"
			   "10: 2b000002    ldta DT_VAR(0), %r0, %r2\n"
			   "11: 01010203    or   %r1, %r2, %r3\n"
			   "12: 24000000    nop\n"
			   "13: 23000003    ret  %r3\n"
			   "\n"
			   "NAME             ID   KND SCP FLAG TYPE\n"
			   "g                503  scl glb 0x10/r/w D type (integer) (size 4)\n"
			   "odd              600  7   9        0x5 (0x20) (size 3)\n"
			   "u                501  arr loc w    string (unknown) by ref (size 256)\n";
	CHECK(strcmp(got, want) == 0, "hand-made DIFO:\n--- expected\n%s--- got\n%s", want, got);
	free(got);
}

int
main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_listing(cases[i].src, cases[i].want);
	expect_noreg();
	test_format();
	printf("compile_dis: %d passed, %d failed\n", passes, failures);
	return failures != 0;
}
