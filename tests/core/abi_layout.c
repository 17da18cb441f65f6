/*
 * abi_layout.c: the shared ABI header keeps DTrace's published layouts and
 * its encode/decode macros round-trip.
 *
 * The static assertions pin every structure that travels in DOF or in a
 * buffer to the byte layout other DTrace implementations use, so a change
 * that would make foreign DOF unloadable fails to compile.  main() checks the
 * packing macros at run time and returns non-zero on the first mismatch.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dtrace_abi.h"

#define LAYOUT(type, size) _Static_assert(sizeof(type) == (size), #type " size")
#define AT(type, field, off) _Static_assert(offsetof(type, field) == (off), #type "." #field)

/* DOF */
LAYOUT(dof_hdr_t, 64);
AT(dof_hdr_t, dofh_flags, 16);
AT(dof_hdr_t, dofh_hdrsize, 20);
AT(dof_hdr_t, dofh_secsize, 24);
AT(dof_hdr_t, dofh_secnum, 28);
AT(dof_hdr_t, dofh_secoff, 32);
AT(dof_hdr_t, dofh_loadsz, 40);
AT(dof_hdr_t, dofh_filesz, 48);
LAYOUT(dof_sec_t, 32);
AT(dof_sec_t, dofs_entsize, 12);
AT(dof_sec_t, dofs_offset, 16);
AT(dof_sec_t, dofs_size, 24);
LAYOUT(dof_ecbdesc_t, 24);
AT(dof_ecbdesc_t, dofe_uarg, 16);
LAYOUT(dof_probedesc_t, 24);
AT(dof_probedesc_t, dofp_id, 20);
LAYOUT(dof_actdesc_t, 32);
AT(dof_actdesc_t, dofa_kind, 8);
AT(dof_actdesc_t, dofa_ntuple, 12);
AT(dof_actdesc_t, dofa_arg, 16);
AT(dof_actdesc_t, dofa_uarg, 24);
LAYOUT(dof_difohdr_t, 12);
AT(dof_difohdr_t, dofd_links, 8);
LAYOUT(dof_relohdr_t, 12);
LAYOUT(dof_relodesc_t, 24);
AT(dof_relodesc_t, dofr_offset, 8);
LAYOUT(dof_optdesc_t, 16);
AT(dof_optdesc_t, dofo_value, 8);
LAYOUT(dof_provider_t, 44);
AT(dof_provider_t, dofpv_prenoffs, 40);
LAYOUT(dof_probe_t, 48);
AT(dof_probe_t, dofpr_argidx, 24);
AT(dof_probe_t, dofpr_nargc, 32);
AT(dof_probe_t, dofpr_xargc, 33);
AT(dof_probe_t, dofpr_noffs, 34);
AT(dof_probe_t, dofpr_enoffidx, 36);
AT(dof_probe_t, dofpr_nenoffs, 40);
AT(dof_probe_t, dofpr_pad2, 44);
LAYOUT(dof_xlator_t, 24);
LAYOUT(dof_xlmember_t, 16);
LAYOUT(dof_xlref_t, 12);
LAYOUT(dof_helper_t, 80);

/* DIF */
LAYOUT(dif_instr_t, 4);
LAYOUT(dtrace_diftype_t, 8);
AT(dtrace_diftype_t, dtdt_size, 4);
LAYOUT(dtrace_difv_t, 20);
AT(dtrace_difv_t, dtdv_kind, 8);
AT(dtrace_difv_t, dtdv_scope, 9);
AT(dtrace_difv_t, dtdv_flags, 10);
AT(dtrace_difv_t, dtdv_type, 12);

/* Records and descriptors */
LAYOUT(dtrace_rechdr_t, 12);
AT(dtrace_rechdr_t, dtrh_timestamp_hi, 4);
AT(dtrace_rechdr_t, dtrh_timestamp_lo, 8);
LAYOUT(dtrace_recdesc_t, 32);
AT(dtrace_recdesc_t, dtrd_size, 4);
AT(dtrace_recdesc_t, dtrd_offset, 8);
AT(dtrace_recdesc_t, dtrd_alignment, 12);
AT(dtrace_recdesc_t, dtrd_format, 14);
AT(dtrace_recdesc_t, dtrd_arg, 16);
AT(dtrace_recdesc_t, dtrd_uarg, 24);
LAYOUT(dtrace_eprobedesc_t, 56);
AT(dtrace_eprobedesc_t, dtepd_uarg, 8);
AT(dtrace_eprobedesc_t, dtepd_nrecs, 20);
AT(dtrace_eprobedesc_t, dtepd_rec, 24);
LAYOUT(dtrace_aggdesc_t, 72);
AT(dtrace_aggdesc_t, dtagd_varid, 8);
AT(dtrace_aggdesc_t, dtagd_id, 20);
AT(dtrace_aggdesc_t, dtagd_nrecs, 32);
AT(dtrace_aggdesc_t, dtagd_rec, 40);
LAYOUT(dtrace_fmtdesc_t, 16);
AT(dtrace_fmtdesc_t, dtfd_length, 8);
AT(dtrace_fmtdesc_t, dtfd_format, 12);
LAYOUT(dtrace_bufdesc_t, 48);
AT(dtrace_bufdesc_t, dtbd_cpu, 8);
AT(dtrace_bufdesc_t, dtbd_errors, 12);
AT(dtrace_bufdesc_t, dtbd_drops, 16);
AT(dtrace_bufdesc_t, dtbd_data, 24);
AT(dtrace_bufdesc_t, dtbd_oldest, 32);
AT(dtrace_bufdesc_t, dtbd_timestamp, 40);
/* FreeBSD's and NetBSD's ENABLE payload: _IOWR('x', 6, ...) encodes 16 */
LAYOUT(dtrace_enable_io_t, 16);
AT(dtrace_enable_io_t, dof, 0);
AT(dtrace_enable_io_t, n_matched, 8);
LAYOUT(dtrace_status_t, 88);
AT(dtrace_status_t, dtst_killed, 80);
AT(dtrace_status_t, dtst_exiting, 81);
LAYOUT(dtrace_conf_t, 48);
LAYOUT(dtrace_probedesc_t, 4 + 64 + 64 + 128 + 64);
AT(dtrace_probedesc_t, dtpd_func, 132);
LAYOUT(dtrace_argdesc_t, 12 + 2 * 128);
LAYOUT(dtrace_attribute_t, 3);
LAYOUT(dtrace_pattr_t, 15);
LAYOUT(dtrace_ppriv_t, 12);
LAYOUT(dtrace_providerdesc_t, 92);
AT(dtrace_providerdesc_t, dtvd_priv, 80);

/* Numbering facts other implementations depend on. */
_Static_assert(DIF_OP_XLARG == 79 && DIF_OP_STGA == 80, "opcode numbering");
_Static_assert(DIF_SUBR_STRTOLL == 48 && DIF_SUBR_GETF == 46, "illumos subroutine numbering");
_Static_assert(DIF_VAR_ERRNO == 0x0120 && DIF_VAR_THREADNAME == 0x0121, "variable ids");
_Static_assert(DTRACEAGG_LLQUANTIZE == 0x0709 && DTRACEACT_UADDR == 0x0105, "action kinds");
_Static_assert(DTRACEOPT_MAX == 32 && DTRACEOPT_ZONE == 31, "option indices");
_Static_assert(DOF_SECT_PRENOFFS == 26 && DOF_SECT_UTSNAME == 20, "section types");
_Static_assert(DTRACE_QUANTIZE_NBUCKETS == 127, "quantize buckets");
_Static_assert(DTRACE_CTL_REPLICATE == 18 && DTRACE_CTL_AGGDESC == 15, "control ops");

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

static void
check_dif_encoding(void)
{
	dif_instr_t add = DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 3);

	CHECK(add == 0x07010203u);
	CHECK(DIF_INSTR_OP(add) == DIF_OP_ADD);
	CHECK(DIF_INSTR_R1(add) == 1 && DIF_INSTR_R2(add) == 2 && DIF_INSTR_RD(add) == 3);

	dif_instr_t setx = DIF_INSTR_SETX(0xbeef, 7);
	CHECK(DIF_INSTR_OP(setx) == DIF_OP_SETX);
	CHECK(DIF_INSTR_INTEGER(setx) == 0xbeef && DIF_INSTR_RD(setx) == 7);

	dif_instr_t call = DIF_INSTR_CALL(DIF_SUBR_STRLEN, 4);
	CHECK(DIF_INSTR_OP(call) == DIF_OP_CALL && DIF_INSTR_SUBR(call) == DIF_SUBR_STRLEN);

	dif_instr_t ldv = DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_TIMESTAMP, 5);
	CHECK(DIF_INSTR_VAR(ldv) == DIF_VAR_TIMESTAMP && DIF_INSTR_RD(ldv) == 5);

	dif_instr_t ba = DIF_INSTR_BRANCH(DIF_OP_BA, 0xabcdef);
	CHECK(DIF_INSTR_OP(ba) == DIF_OP_BA && DIF_INSTR_LABEL(ba) == 0xabcdef);

	dif_instr_t push = DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 2, 6);
	CHECK(DIF_INSTR_TYPE(push) == DIF_TYPE_STRING && DIF_INSTR_R2(push) == 2 &&
	      DIF_INSTR_RS(push) == 6);

	dif_instr_t xl = DIF_INSTR_XLATE(DIF_OP_XLATE, 0x1234, 1);
	CHECK(DIF_INSTR_XLREF(xl) == 0x1234 && DIF_INSTR_OP(xl) == DIF_OP_XLATE);

	CHECK(DIF_INSTR_OP(DIF_INSTR_NOP) == DIF_OP_NOP);
	CHECK(DIF_INSTR_RD(DIF_INSTR_RET(3)) == 3);
}

static void
check_aggregation_args(void)
{
	uint64_t lq = DTRACE_LQUANTIZE_ARG(10, 100, -500);

	CHECK(DTRACE_LQUANTIZE_STEP(lq) == 10);
	CHECK(DTRACE_LQUANTIZE_LEVELS(lq) == 100);
	CHECK(DTRACE_LQUANTIZE_BASE(lq) == -500);
	CHECK(DTRACE_LQUANTIZE_NBUCKETS(lq) == 102);

	uint64_t llq = DTRACE_LLQUANTIZE_ARG(10, 0, 6, 20);
	CHECK(DTRACE_LLQUANTIZE_FACTOR(llq) == 10 && DTRACE_LLQUANTIZE_LOW(llq) == 0);
	CHECK(DTRACE_LLQUANTIZE_HIGH(llq) == 6 && DTRACE_LLQUANTIZE_NSTEP(llq) == 20);

	CHECK(DTRACE_QUANTIZE_BUCKETVAL(DTRACE_QUANTIZE_ZEROBUCKET) == 0);
	CHECK(DTRACE_QUANTIZE_BUCKETVAL(DTRACE_QUANTIZE_ZEROBUCKET + 1) == 1);
	CHECK(DTRACE_QUANTIZE_BUCKETVAL(DTRACE_QUANTIZE_ZEROBUCKET + 11) == 1024);
	CHECK(DTRACE_QUANTIZE_BUCKETVAL(DTRACE_QUANTIZE_ZEROBUCKET - 1) == -1);
	CHECK(DTRACE_QUANTIZE_BUCKETVAL(0) == -(INT64_C(1) << 62));
	CHECK(DTRACE_QUANTIZE_BUCKETVAL(DTRACE_QUANTIZE_NBUCKETS - 1) == (INT64_C(1) << 62));

	uint64_t us = DTRACE_USTACK_ARG(100, 4096);
	CHECK(DTRACE_USTACK_NFRAMES(us) == 100 && DTRACE_USTACK_STRSIZE(us) == 4096);
}

static void
check_records_and_dof(void)
{
	dtrace_rechdr_t rh;
	uint64_t ts = UINT64_C(0x0123456789abcdef);

	DTRACE_RECORD_STORE_TIMESTAMP(&rh, ts);
	CHECK(rh.dtrh_timestamp_hi == 0x01234567u && rh.dtrh_timestamp_lo == 0x89abcdefu);
	CHECK(DTRACE_RECORD_LOAD_TIMESTAMP(&rh) == ts);

	dof_attr_t a =
	    DOF_ATTR(DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON);
	CHECK(DOF_ATTR_NAME(a) == DTRACE_STABILITY_EVOLVING);
	CHECK(DOF_ATTR_DATA(a) == DTRACE_STABILITY_STABLE);
	CHECK(DOF_ATTR_CLASS(a) == DTRACE_CLASS_COMMON);

	CHECK(DOF_SEC_ISLOADABLE(DOF_SECT_ECBDESC) && DOF_SEC_ISLOADABLE(DOF_SECT_INTTAB));
	CHECK(DOF_SEC_ISLOADABLE(DOF_SECT_XLTAB) && DOF_SEC_ISLOADABLE(DOF_SECT_PRENOFFS));
	CHECK(!DOF_SEC_ISLOADABLE(DOF_SECT_NONE) && !DOF_SEC_ISLOADABLE(DOF_SECT_COMMENTS));
	CHECK(!DOF_SEC_ISLOADABLE(DOF_SECT_SOURCE) && !DOF_SEC_ISLOADABLE(DOF_SECT_UTSNAME));
	CHECK(!DOF_SEC_ISLOADABLE(DOF_SECT_PRENOFFS + 1));

	CHECK(memcmp(DOF_MAG_STRING,
	             "\x7f"
	             "DOF",
	             DOF_MAG_STRLEN) == 0);
	const uint16_t probe = 1;
	unsigned char first;
	memcpy(&first, &probe, 1);
	CHECK(DOF_ENCODE_NATIVE == (first == 1 ? DOF_ENCODE_LSB : DOF_ENCODE_MSB));
	CHECK(DOF_MODEL_NATIVE == (sizeof(long) == 8 ? DOF_MODEL_LP64 : DOF_MODEL_ILP32));

	CHECK(DTRACEACT_CLASS(DTRACEAGG_QUANTIZE) == DTRACEACT_AGGREGATION);
	CHECK(DTRACEACT_ISAGG(DTRACEAGG_COUNT) && !DTRACEACT_ISAGG(DTRACEACT_PRINTF));
	CHECK(DTRACEACT_ISDESTRUCTIVE(DTRACEACT_RAISE) && DTRACEACT_ISDESTRUCTIVE(DTRACEACT_PANIC));
	CHECK(!DTRACEACT_ISDESTRUCTIVE(DTRACEACT_USTACK));
	CHECK(DTRACEACT_ISSPECULATIVE(DTRACEACT_COMMIT));

	const char *stab[] = DTRACE_STABILITY_NAMES;
	const char *cls[] = DTRACE_CLASS_NAMES;
	CHECK(sizeof(stab) / sizeof(stab[0]) == DTRACE_STABILITY_MAX + 1);
	CHECK(sizeof(cls) / sizeof(cls[0]) == DTRACE_CLASS_MAX + 1);
	CHECK(strcmp(stab[DTRACE_STABILITY_EVOLVING], "Evolving") == 0);
	CHECK(strcmp(cls[DTRACE_CLASS_ISA], "ISA") == 0);

	dtrace_eprobedesc_t ep = {.dtepd_nrecs = 3};
	CHECK(DTRACE_SIZEOF_EPROBEDESC(&ep) ==
	      sizeof(dtrace_eprobedesc_t) + 2 * sizeof(dtrace_recdesc_t));
	ep.dtepd_nrecs = 0;
	CHECK(DTRACE_SIZEOF_EPROBEDESC(&ep) == sizeof(dtrace_eprobedesc_t));
}

int
main(void)
{
	check_dif_encoding();
	check_aggregation_args();
	check_records_and_dof();
	if (failures != 0) {
		fprintf(stderr, "abi_layout: %d check(s) failed\n", failures);
		return 1;
	}
	return 0;
}
