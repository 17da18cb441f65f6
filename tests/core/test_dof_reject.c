/*
 * DOF loading refuses every malformed image with a precise reason, one
 * case per check of core/dof_load.c: a valid image is built, one field is
 * broken, and ENABLE must fail with the expected errno and the expected
 * dtrace_state_errmsg(), without leaking (the test port checks at the end).
 * The unbroken image is accepted.  Also: names too long for their field,
 * too many actions, and every allocation of an ENABLE failed in turn (a
 * refusal each time, nothing leaked).  ("invalid DIFO header section" cannot
 * be reached: both callers fetch the section by type first.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dof_builder.h"
#include "dtrace_impl.h"
#include "test_util.h"
#include "testport.h"

/* Indices of the base image's sections. */
static struct {
	uint32_t comments, ecb, pd, pdstr, acts, fmtstr, difo, dif, inttab, pred, opts, urel,
		relstr, reltab;
} S;

static void
build_base(dofb_t *b)
{
	static const char fmt[] = "\0value %d\n";
	static const char *const relnames[] = {"sym", NULL};
	uint32_t reloff[1];
	dof_actdesc_t a[2];
	dof_relodesc_t rel;
	dof_relohdr_t rh;
	dif_instr_t ptext[] = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	uint64_t one = 1;

	dofb_init(b);
	S.comments = dofb_add(b, DOF_SECT_COMMENTS, 1, 0, "hand-built", 11);
	S.pd = dofb_probedesc(b, "dtrace", "", "", "BEGIN");
	S.pdstr = S.pd - 1;
	S.difo = dofb_difo_const(b, 42, 8);
	S.dif = S.difo - 2;
	S.inttab = S.difo - 1;
	S.fmtstr = dofb_add(b, DOF_SECT_STRTAB, 1, 0, fmt, sizeof(fmt));
	a[0] = dofb_act(DTRACEACT_PRINTF, S.difo, 1);
	a[0].dofa_strtab = S.fmtstr;
	a[1] = dofb_act(DTRACEACT_DIFEXPR, S.difo, 0);
	S.acts = dofb_actions(b, a, 2);
	S.pred = dofb_difo(b, dofb_type_int(4), ptext, 2, &one, 1, NULL, 0, NULL, 0);
	S.ecb = dofb_ecbdesc(b, S.pd, S.pred, S.acts, 7);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}, {DTRACEOPT_STRSIZE, 128}};
		S.opts = dofb_options(b, opts, 2);
	}
	/* a user relocation of the integer table, checked and applied with base 0 */
	S.relstr = dofb_strtab(b, relnames, reloff);
	memset(&rel, 0, sizeof(rel));
	rel.dofr_name = reloff[0];
	rel.dofr_type = DOF_RELO_SETX;
	rel.dofr_offset = 0;
	S.reltab = dofb_add(b, DOF_SECT_RELTAB, sizeof(uint64_t), sizeof(rel), &rel, sizeof(rel));
	rh.dofr_strtab = S.relstr;
	rh.dofr_relsec = S.reltab;
	rh.dofr_tgtsec = S.inttab;
	S.urel = dofb_add(b, DOF_SECT_URELHDR, sizeof(dof_secidx_t), 0, &rh, sizeof(rh));
	dofb_finish(b);
}

typedef void (*mutate_fn)(dofb_t *b);

typedef struct rcase {
	const char *name;
	mutate_fn fn;
	int err;
	const char *msg; /* exact reason, or a prefix when it ends in ':' */
} rcase_t;

#define HDR(b) ((b)->image)
#define SEC(b, i) dofb_sec((b), (i))

static void m_magic(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_MAG1] = 'X'; }
static void m_model(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_MODEL] = 7; }
static void m_encoding(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_ENCODING] = DOF_ENCODE_NATIVE == DOF_ENCODE_LSB ? DOF_ENCODE_MSB : DOF_ENCODE_LSB; }
static void m_version0(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_VERSION] = 0; }
static void m_version4(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_VERSION] = 4; }
static void m_difvers(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_DIFVERS] = DIF_VERSION_1; }
static void m_difireg(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_DIFIREG] = DIF_DIR_NREGS + 1; }
static void m_diftreg(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_DIFTREG] = DIF_DTR_NREGS + 1; }
static void m_pad(dofb_t *b) { HDR(b)->dofh_ident[DOF_ID_SIZE - 1] = 1; }
static void m_flags(dofb_t *b) { HDR(b)->dofh_flags = 1; }
static void m_hdrsize(dofb_t *b) { HDR(b)->dofh_hdrsize = sizeof(dof_hdr_t) - 8; }
static void m_filesz(dofb_t *b) { HDR(b)->dofh_filesz = HDR(b)->dofh_loadsz - 8; }
static void m_secsize_small(dofb_t *b) { HDR(b)->dofh_secsize = 16; }
static void m_secsize_odd(dofb_t *b) { HDR(b)->dofh_secsize = sizeof(dof_sec_t) + 4; }
static void m_secnum(dofb_t *b) { HDR(b)->dofh_secnum = 100000; }
static void m_secoff_hdr(dofb_t *b) { HDR(b)->dofh_secoff = 8; }
static void m_secoff_odd(dofb_t *b) { HDR(b)->dofh_secoff += 4; }
static void m_sectype(dofb_t *b) { SEC(b, S.comments)->dofs_type = 99; }
static void m_provider(dofb_t *b) { SEC(b, S.comments)->dofs_type = DOF_SECT_PROVIDER; }
static void m_noload(dofb_t *b) { SEC(b, S.opts)->dofs_flags = 0; }
static void m_secflags(dofb_t *b) { SEC(b, S.opts)->dofs_flags |= 2; }
static void m_align3(dofb_t *b) { SEC(b, S.opts)->dofs_align = 3; }
static void m_misaligned(dofb_t *b) { SEC(b, S.opts)->dofs_offset += 4; }
static void m_oversize(dofb_t *b) { SEC(b, S.opts)->dofs_size = HDR(b)->dofh_loadsz; }
static void m_strtab_nul(dofb_t *b) { ((char *)dofb_data(b, S.pdstr))[SEC(b, S.pdstr)->dofs_size - 1] = 'x'; }
static void m_strtab_empty(dofb_t *b) { SEC(b, S.pdstr)->dofs_size = 0; }
static void m_relhdr(dofb_t *b) { SEC(b, S.urel)->dofs_size = 4; }
static void m_relsec(dofb_t *b) { SEC(b, S.reltab)->dofs_entsize = 8; }
static void m_relname(dofb_t *b) { ((dof_relodesc_t *)dofb_data(b, S.reltab))->dofr_name = 1000; }
static void m_reloff(dofb_t *b) { ((dof_relodesc_t *)dofb_data(b, S.reltab))->dofr_offset = 8; }
static void m_relalign(dofb_t *b) { ((dof_relodesc_t *)dofb_data(b, S.reltab))->dofr_offset = 1; SEC(b, S.inttab)->dofs_size = 16; }
static void m_reltype(dofb_t *b) { ((dof_relodesc_t *)dofb_data(b, S.reltab))->dofr_type = 9; }
static void m_reltgt(dofb_t *b) { ((dof_relohdr_t *)dofb_data(b, S.urel))->dofr_tgtsec = 5000; }
static void m_ref_index(dofb_t *b) { ((dof_ecbdesc_t *)dofb_data(b, S.ecb))->dofe_probes = 5000; }
static void m_ref_noload(dofb_t *b) { ((dof_ecbdesc_t *)dofb_data(b, S.ecb))->dofe_probes = S.comments; }
static void m_ref_type(dofb_t *b) { ((dof_ecbdesc_t *)dofb_data(b, S.ecb))->dofe_probes = S.acts; }
static void m_ecb_align(dofb_t *b) { SEC(b, S.ecb)->dofs_align = 4; }
static void m_ecb_size(dofb_t *b) { SEC(b, S.ecb)->dofs_size = 8; }
static void m_pd_align(dofb_t *b) { SEC(b, S.pd)->dofs_align = 1; }
static void m_pd_size(dofb_t *b) { SEC(b, S.pd)->dofs_size = 8; }
static void m_pd_prov(dofb_t *b) { ((dof_probedesc_t *)dofb_data(b, S.pd))->dofp_provider = 9999; }
static void m_pd_mod(dofb_t *b) { ((dof_probedesc_t *)dofb_data(b, S.pd))->dofp_mod = 9999; }
static void m_pd_func(dofb_t *b) { ((dof_probedesc_t *)dofb_data(b, S.pd))->dofp_func = 9999; }
static void m_pd_name(dofb_t *b) { ((dof_probedesc_t *)dofb_data(b, S.pd))->dofp_name = 9999; }
static void m_pd_strtab(dofb_t *b) { ((dof_probedesc_t *)dofb_data(b, S.pd))->dofp_strtab = S.pd; }
static void m_act_align(dofb_t *b) { SEC(b, S.acts)->dofs_align = 4; }
static void m_act_entsize(dofb_t *b) { SEC(b, S.acts)->dofs_entsize = 8; }
static void m_act_size(dofb_t *b) { SEC(b, S.acts)->dofs_size -= 8; }
static void m_act_kind(dofb_t *b) { ((dof_actdesc_t *)dofb_data(b, S.acts))->dofa_kind = 0x10000; }
static void m_fmt_bogus(dofb_t *b) { ((dof_actdesc_t *)dofb_data(b, S.acts))->dofa_arg = 1000; }
static void m_fmt_empty(dofb_t *b) { ((dof_actdesc_t *)dofb_data(b, S.acts))->dofa_arg = 0; }
static void m_fmt_nostrtab(dofb_t *b) { ((dof_actdesc_t *)dofb_data(b, S.acts))->dofa_strtab = DOF_SECIDX_NONE; }
static void m_act_difo(dofb_t *b) { ((dof_actdesc_t *)dofb_data(b, S.acts))->dofa_difo = S.pd; }
static void m_difo_align(dofb_t *b) { SEC(b, S.difo)->dofs_align = 2; }
static void m_difo_size(dofb_t *b) { SEC(b, S.difo)->dofs_size = 6; }
static void m_difo_link(dofb_t *b) { ((dof_difohdr_t *)dofb_data(b, S.difo))->dofd_links[0] = S.pd; }
static void m_difo_dup(dofb_t *b) { ((dof_difohdr_t *)dofb_data(b, S.difo))->dofd_links[1] = S.dif; }
static void m_difo_notext(dofb_t *b) { ((dof_difohdr_t *)dofb_data(b, S.difo))->dofd_links[0] = S.inttab; SEC(b, S.difo)->dofs_size -= 4; }
static void m_dif_align(dofb_t *b) { SEC(b, S.dif)->dofs_align = 2; }
static void m_dif_entsize(dofb_t *b) { SEC(b, S.dif)->dofs_entsize = 8; }
static void m_dif_size(dofb_t *b) { SEC(b, S.dif)->dofs_size = 6; SEC(b, S.dif)->dofs_align = 2; SEC(b, S.dif)->dofs_entsize = 2; }
static void m_dif_corrupt(dofb_t *b) { SEC(b, S.inttab)->dofs_size = 12; }
static void m_dif_empty(dofb_t *b) { SEC(b, S.dif)->dofs_size = 0; }
static void m_dif_bad(dofb_t *b) { ((dif_instr_t *)dofb_data(b, S.dif))[1] = DIF_INSTR_FMT(0xee, 0, 0, 0); }
static void m_opt_align(dofb_t *b) { SEC(b, S.opts)->dofs_align = 4; }
static void m_opt_entsize0(dofb_t *b) { SEC(b, S.opts)->dofs_entsize = 0; }
static void m_opt_entsize(dofb_t *b) { SEC(b, S.opts)->dofs_entsize = 8; }
static void m_opt_strtab(dofb_t *b) { ((dof_optdesc_t *)dofb_data(b, S.opts))->dofo_strtab = S.pdstr; }
static void m_opt_unset(dofb_t *b) { ((dof_optdesc_t *)dofb_data(b, S.opts))[1].dofo_value = (uint64_t)DTRACEOPT_UNSET; }
static void m_opt_unknown(dofb_t *b) { ((dof_optdesc_t *)dofb_data(b, S.opts))[1].dofo_option = 999; }
static void m_opt_negative(dofb_t *b) { ((dof_optdesc_t *)dofb_data(b, S.opts))[0].dofo_value = (uint64_t)-5; }

static const rcase_t cases[] = {
	{"magic", m_magic, DTRACE_EINVAL, "DOF magic string mismatch"},
	{"model", m_model, DTRACE_EINVAL, "DOF has invalid data model"},
	{"encoding", m_encoding, DTRACE_EINVAL, "DOF encoding mismatch"},
	{"version 0", m_version0, DTRACE_EINVAL, "DOF version mismatch"},
	{"version 4", m_version4, DTRACE_EINVAL, "DOF version mismatch"},
	{"DIF version", m_difvers, DTRACE_EINVAL, "DOF uses unsupported instruction set"},
	{"int registers", m_difireg, DTRACE_EINVAL, "DOF uses too many integer registers"},
	{"tuple registers", m_diftreg, DTRACE_EINVAL, "DOF uses too many tuple registers"},
	{"ident padding", m_pad, DTRACE_EINVAL, "DOF has invalid ident byte set"},
	{"flags", m_flags, DTRACE_EINVAL, "DOF has invalid flag bits set"},
	{"header size", m_hdrsize, DTRACE_EINVAL, "DOF header size mismatch"},
	{"file size", m_filesz, DTRACE_EINVAL, "DOF file size less than load size"},
	{"secsize small", m_secsize_small, DTRACE_EINVAL, "section header size too small"},
	{"secsize odd", m_secsize_odd, DTRACE_EINVAL, "misaligned section size"},
	{"secnum", m_secnum, DTRACE_EINVAL, "truncated section headers"},
	{"secoff in header", m_secoff_hdr, DTRACE_EINVAL, "section headers overlap the DOF header"},
	{"secoff odd", m_secoff_odd, DTRACE_EINVAL, "misaligned section headers"},
	{"section type", m_sectype, DTRACE_EINVAL, "unknown section type"},
	{"provider section", m_provider, DTRACE_EINVAL, "illegal sections for enabling"},
	{"load flag", m_noload, DTRACE_EINVAL, "loadable section with load flag unset"},
	{"section flags", m_secflags, DTRACE_EINVAL, "section has invalid flag bits set"},
	{"section align", m_align3, DTRACE_EINVAL, "bad section alignment"},
	{"section offset", m_misaligned, DTRACE_EINVAL, "misaligned section"},
	{"section bounds", m_oversize, DTRACE_EINVAL, "corrupt section header"},
	{"strtab NUL", m_strtab_nul, DTRACE_EINVAL, "non-terminating string table"},
	{"strtab empty", m_strtab_empty, DTRACE_EINVAL, "non-terminating string table"},
	{"relo header", m_relhdr, DTRACE_EINVAL, "invalid relocation header"},
	{"relo table", m_relsec, DTRACE_EINVAL, "invalid relocation section"},
	{"relo name", m_relname, DTRACE_EINVAL, "bad relocation symbol name"},
	{"relo offset", m_reloff, DTRACE_EINVAL, "bad relocation offset"},
	{"relo alignment", m_relalign, DTRACE_EINVAL, "misaligned setx relocation"},
	{"relo type", m_reltype, DTRACE_EINVAL, "invalid relocation type"},
	{"relo target", m_reltgt, DTRACE_EINVAL, "referenced section index is invalid"},
	{"ref index", m_ref_index, DTRACE_EINVAL, "referenced section index is invalid"},
	{"ref not loadable", m_ref_noload, DTRACE_EINVAL, "referenced section is not loadable"},
	{"ref type", m_ref_type, DTRACE_EINVAL, "referenced section is the wrong type"},
	{"ECB alignment", m_ecb_align, DTRACE_EINVAL, "bad alignment in ECB description"},
	{"ECB size", m_ecb_size, DTRACE_EINVAL, "truncated ECB description"},
	{"probe alignment", m_pd_align, DTRACE_EINVAL, "bad alignment in probe description"},
	{"probe size", m_pd_size, DTRACE_EINVAL, "truncated probe description"},
	{"probe provider", m_pd_prov, DTRACE_EINVAL, "corrupt probe provider"},
	{"probe module", m_pd_mod, DTRACE_EINVAL, "corrupt probe module"},
	{"probe function", m_pd_func, DTRACE_EINVAL, "corrupt probe function"},
	{"probe name", m_pd_name, DTRACE_EINVAL, "corrupt probe name"},
	{"probe strtab", m_pd_strtab, DTRACE_EINVAL, "referenced section is the wrong type"},
	{"action alignment", m_act_align, DTRACE_EINVAL, "bad alignment in action description"},
	{"action entsize", m_act_entsize, DTRACE_EINVAL, "bad entry size in action description"},
	{"action size", m_act_size, DTRACE_EINVAL, "truncated action description"},
	{"action kind", m_act_kind, DTRACE_EINVAL, "invalid action kind"},
	{"format offset", m_fmt_bogus, DTRACE_EINVAL, "bogus format string"},
	{"format empty", m_fmt_empty, DTRACE_EINVAL, "empty format string"},
	{"format strtab", m_fmt_nostrtab, DTRACE_EINVAL, "referenced section index is invalid"},
	{"action DIFO ref", m_act_difo, DTRACE_EINVAL, "referenced section is the wrong type"},
	{"DIFO alignment", m_difo_align, DTRACE_EINVAL, "bad alignment in DIFO header"},
	{"DIFO size", m_difo_size, DTRACE_EINVAL, "bad size in DIFO header"},
	{"DIFO subsection", m_difo_link, DTRACE_EINVAL, "unrecognized DIFO subsection"},
	{"DIFO duplicate", m_difo_dup, DTRACE_EINVAL, "multiple DIF sections"},
	{"DIFO no text", m_difo_notext, DTRACE_EINVAL, "missing DIF text"},
	{"DIF alignment", m_dif_align, DTRACE_EINVAL, "bad alignment in DIFO subsection"},
	{"DIF entsize", m_dif_entsize, DTRACE_EINVAL, "entry size mismatch in DIFO subsection"},
	{"DIF size", m_dif_size, DTRACE_EINVAL, "bad alignment in DIFO subsection"},
	{"inttab size", m_dif_corrupt, DTRACE_EINVAL, "corrupt entry size in DIFO subsection"},
	{"DIF empty", m_dif_empty, DTRACE_EINVAL, "empty DIF text"},
	{"DIF invalid", m_dif_bad, DTRACE_EINVAL, "invalid DIF:"},
	{"option alignment", m_opt_align, DTRACE_EINVAL, "bad alignment in option description"},
	{"option entsize 0", m_opt_entsize0, DTRACE_EINVAL, "zeroed option entry size"},
	{"option entsize", m_opt_entsize, DTRACE_EINVAL, "bad option entry size"},
	{"option string", m_opt_strtab, DTRACE_EINVAL, "non-zero option string"},
	{"option unset", m_opt_unset, DTRACE_EINVAL, "unset option"},
	{"option unknown", m_opt_unknown, DTRACE_EINVAL, "rejected option"},
	{"option negative", m_opt_negative, DTRACE_EINVAL, "rejected option"},
};

static void
check_msg(const char *name, dtrace_state_t *st, const char *want)
{
	const char *got = dtrace_state_errmsg(st);
	size_t n = strlen(want);
	int ok;

	if (got == NULL)
		ok = 0;
	else if (want[n - 1] == ':')
		ok = strncmp(got, want, n) == 0;
	else
		ok = strcmp(got, want) == 0;
	if (!ok)
		fprintf(stderr, "case %s: reason \"%s\", expected \"%s\"\n", name,
			got ? got : "(none)", want);
	CHECK(ok);
}

int
main(void)
{
	dtrace_state_t *st;
	dofb_t b;
	int rv, err;

	testport_reset(false);
	CHECK_EQ(dtrace_init(), 0);
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		build_base(&b);
		cases[i].fn(&b);
		err = dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv);
		if (err != cases[i].err)
			fprintf(stderr, "case %s: errno %d, expected %d (%s)\n", cases[i].name, err,
				cases[i].err, dtrace_state_errmsg(st));
		CHECK_EQ(err, cases[i].err);
		check_msg(cases[i].name, st, cases[i].msg);
		dofb_fini(&b);
	}

	/* a DIFO linking one big section five times exceeds the DIFO maximum */
	{
		static dif_instr_t big[140000 / sizeof(dif_instr_t)];
		struct {
			dtrace_diftype_t rtype;
			dof_secidx_t links[5];
		} h;
		uint32_t pd, dif, difo;
		dof_actdesc_t a;

		dofb_init(&b);
		pd = dofb_probedesc(&b, "dtrace", "", "", "BEGIN");
		big[0] = DIF_INSTR_RET(0);
		dif = dofb_add(&b, DOF_SECT_DIF, 4, 4, big, sizeof(big));
		memset(&h, 0, sizeof(h));
		h.rtype = dofb_type_int(8);
		for (int i = 0; i < 5; i++)
			h.links[i] = dif;
		difo = dofb_add(&b, DOF_SECT_DIFOHDR, 4, 0, &h, sizeof(h));
		a = dofb_act(DTRACEACT_DIFEXPR, difo, 0);
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, &a, 1), 0);
		dofb_finish(&b);
		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv), DTRACE_EINVAL);
		check_msg("DIFO maximum", st, "DIFO exceeds maximum size");
		dofb_fini(&b);
	}

	/* load size: below a header, at or above the maximum */
	build_base(&b);
	b.image->dofh_loadsz = 16;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv), DTRACE_EINVAL);
	check_msg("loadsz small", st, "invalid DOF load size");
	b.image->dofh_loadsz = DTRACE_DOF_MAXSIZE;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv), DTRACE_E2BIG);
	check_msg("loadsz big", st, "DOF load size exceeds maximum");
	dofb_fini(&b);

	/* the loader itself, given fewer bytes than the header claims */
	build_base(&b);
	{
		dtrace_enabling_t *enab = NULL;

		dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
		CHECK_EQ(dtrace_dof_slurp(b.image, b.imagelen - 8, st, &enab), -1);
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		CHECK(enab == NULL);
		check_msg("loadsz mismatch", st, "DOF load size mismatch");
		dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
		CHECK_EQ(dtrace_dof_slurp(b.image, 8, st, &enab), -1);
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		check_msg("short image", st, "truncated DOF header");
	}
	dofb_fini(&b);

	/* a probe description field longer than the field it fills */
	{
		char longname[DTRACE_NAMELEN + 8];
		dof_actdesc_t a;

		memset(longname, 'n', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		dofb_init(&b);
		a = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(&b, 1, 8), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "dtrace", "", "", longname), DOF_SECIDX_NONE,
			     dofb_actions(&b, &a, 1), 0);
		dofb_finish(&b);
		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv), DTRACE_EINVAL);
		check_msg("long name", st, "probe description name too long");
		dofb_fini(&b);
	}

	/*
	 * More actions in one description than an ECB may have: the image is
	 * beyond the ENABLE size limit, so straight to the loader (whose
	 * caller in a kernel may allow larger images).
	 */
	{
		size_t n = DTRACE_ACTIONS_MAX + 1;
		dof_actdesc_t *a = calloc(n, sizeof(*a));
		uint32_t difo;

		CHECK(a != NULL);
		dofb_init(&b);
		difo = dofb_difo_const(&b, 1, 8);
		for (size_t i = 0; i < n; i++)
			a[i] = dofb_act(DTRACEACT_DIFEXPR, difo, 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "dtrace", "", "", "BEGIN"), DOF_SECIDX_NONE,
			     dofb_actions(&b, a, n), 0);
		dofb_finish(&b);
		{
			dtrace_enabling_t *enab = NULL;

			dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
			CHECK_EQ(dtrace_dof_slurp(b.image, b.imagelen, st, &enab), -1);
			dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
			CHECK(enab == NULL);
		}
		check_msg("too many actions", st, "too many actions");
		dofb_fini(&b);
		free(a);
	}

	/*
	 * Every allocation ENABLE makes, failed in turn: a refusal each time
	 * (out of memory, or for the copy of the image ENOMEM), nothing leaked.
	 */
	{
		uint64_t base_out = testport_alloc_outstanding(), before, needed;
		dtrace_state_t *st2;
		int oom = 0;

		build_base(&b);
		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st2), 0);
		before = testport_alloc_count();
		CHECK_EQ(dtrace_ctl(st2, DTRACE_CTL_ENABLE, b.image, &rv), 0);
		needed = testport_alloc_count() - before;
		dtrace_state_close(st2);
		CHECK_EQ(testport_alloc_outstanding(), base_out);
		CHECK(needed >= 5);
		for (uint64_t nth = 1; nth <= needed; nth++) {
			const char *msg;

			CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st2), 0);
			testport_alloc_fail_nth(nth);
			err = dtrace_ctl(st2, DTRACE_CTL_ENABLE, b.image, &rv);
			testport_alloc_fail_nth(0);
			msg = dtrace_state_errmsg(st2);
			if (err == 0 || (err != DTRACE_ENOMEM &&
					 (msg == NULL || strstr(msg, "out of memory") == NULL)))
				fprintf(stderr, "allocation %llu failed: ENABLE %d (%s)\n",
					(unsigned long long)nth, err, msg ? msg : "no reason");
			CHECK(err != 0);
			CHECK(err == DTRACE_ENOMEM ||
			      (msg != NULL && strstr(msg, "out of memory") != NULL));
			oom += msg != NULL && strncmp(msg, "out of memory", 13) == 0;
			dtrace_state_close(st2);
			CHECK_EQ(testport_alloc_outstanding(), base_out);
		}
		CHECK(oom >= 4); /* enabling, ECB description, actions, DIFO */
		dofb_fini(&b);
	}

	/* the unbroken image is accepted and matches BEGIN */
	build_base(&b);
	rv = -1;
	err = dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv);
	CHECK_EQ(err, 0);
	if (err != 0)
		fprintf(stderr, "base image refused: %s\n", dtrace_state_errmsg(st));
	CHECK_EQ(rv, 1);
	CHECK_EQ(st->dts_options[DTRACEOPT_STRSIZE], 128);
	dofb_fini(&b);

	dtrace_state_close(st);
	CHECK_EQ(dtrace_fini(), 0);
	testport_reset(true);
	return TEST_DONE();
}
