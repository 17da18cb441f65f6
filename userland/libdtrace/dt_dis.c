/*
 * dt_dis.c: the -S disassembler, in DTrace's output format, and the
 * program object's accessors and destructor.
 */
#include <stdlib.h>
#include <string.h>

#include "dt_cg.h"

enum { F_STR, F_LOG, F_R1RD, F_CMP, F_TST, F_BR, F_LOAD, F_STORE, F_RET, F_SETX, F_SETS, F_LDA,
       F_LDV, F_STV, F_CALL, F_PUSH, F_XL, F_STA };

static const struct {
	const char *name;
	int fmt;
} dt_optab[] = {
	{"(illegal opcode)", F_STR}, {"or", F_LOG}, {"xor", F_LOG}, {"and", F_LOG}, {"sll", F_LOG},
	{"srl", F_LOG}, {"sub", F_LOG}, {"add", F_LOG}, {"mul", F_LOG}, {"sdiv", F_LOG},
	{"udiv", F_LOG}, {"srem", F_LOG}, {"urem", F_LOG}, {"not", F_R1RD}, {"mov", F_R1RD},
	{"cmp", F_CMP}, {"tst", F_TST}, {"ba", F_BR}, {"be", F_BR}, {"bne", F_BR}, {"bg", F_BR},
	{"bgu", F_BR}, {"bge", F_BR}, {"bgeu", F_BR}, {"bl", F_BR}, {"blu", F_BR}, {"ble", F_BR},
	{"bleu", F_BR}, {"ldsb", F_LOAD}, {"ldsh", F_LOAD}, {"ldsw", F_LOAD}, {"ldub", F_LOAD},
	{"lduh", F_LOAD}, {"lduw", F_LOAD}, {"ldx", F_LOAD}, {"ret", F_RET}, {"nop", F_STR},
	{"setx", F_SETX}, {"sets", F_SETS}, {"scmp", F_CMP}, {"ldga", F_LDA}, {"ldgs", F_LDV},
	{"stgs", F_STV}, {"ldta", F_LDA}, {"ldts", F_LDV}, {"stts", F_STV}, {"sra", F_LOG},
	{"call", F_CALL}, {"pushtr", F_PUSH}, {"pushtv", F_PUSH}, {"popts", F_STR},
	{"flushts", F_STR}, {"ldgaa", F_LDV}, {"ldtaa", F_LDV}, {"stgaa", F_STV}, {"sttaa", F_STV},
	{"ldls", F_LDV}, {"stls", F_STV}, {"allocs", F_R1RD}, {"copys", F_LOG}, {"stb", F_STORE},
	{"sth", F_STORE}, {"stw", F_STORE}, {"stx", F_STORE}, {"uldsb", F_LOAD}, {"uldsh", F_LOAD},
	{"uldsw", F_LOAD}, {"uldub", F_LOAD}, {"ulduh", F_LOAD}, {"ulduw", F_LOAD}, {"uldx", F_LOAD},
	{"rldsb", F_LOAD}, {"rldsh", F_LOAD}, {"rldsw", F_LOAD}, {"rldub", F_LOAD}, {"rlduh", F_LOAD},
	{"rlduw", F_LOAD}, {"rldx", F_LOAD}, {"xlate", F_XL}, {"xlarg", F_XL}, {"stga", F_STA},
};

static const char *const dt_subrnames[] = {
	"rand", "mutex_owned", "mutex_owner", "mutex_type_adaptive", "mutex_type_spin",
	"rw_read_held", "rw_write_held", "rw_iswriter", "copyin", "copyinstr", "speculation",
	"progenyof", "strlen", "copyout", "copyoutstr", "alloca", "bcopy", "copyinto", "msgdsize",
	"msgsize", "getmajor", "getminor", "ddi_pathname", "strjoin", "lltostr", "basename",
	"dirname", "cleanpath", "strchr", "strrchr", "strstr", "strtok", "substr", "index", "rindex",
	"htons", "htonl", "htonll", "ntohs", "ntohl", "ntohll", "inet_ntop", "inet_ntoa",
	"inet_ntoa6", "toupper", "tolower", "getf", "json", "strtoll", "", "", "", "", "", "",
	"memref", "typeref", "sx_shared_held", "sx_exclusive_held", "sx_isexclusive", "memstr",
};

static uint32_t
dt_dis_scope(const char *op)
{
	return op[2] == 'l' ? DIFV_SCOPE_LOCAL : op[2] == 't' ? DIFV_SCOPE_THREAD
	       : op[2] == 'g' ? DIFV_SCOPE_GLOBAL : UINT32_MAX;
}

/* The name of variable id in op's scope: the first table entry with that id and scope. */
static const char *
dt_dis_varname(const dt_difo_t *dp, uint32_t id, const char *op)
{
	uint32_t scope = dt_dis_scope(op);
	for (uint32_t i = 0; i < dp->varlen; i++) {
		if (dp->vartab[i].dtdv_id != id || dp->vartab[i].dtdv_scope != scope)
			continue;
		return dp->vartab[i].dtdv_name < dp->strlen ? dp->strtab + dp->vartab[i].dtdv_name : NULL;
	}
	return NULL;
}

static void
dt_dis_varnote(const dt_difo_t *dp, uint32_t id, const char *op, FILE *fp)
{
	const char *vn = dt_dis_varname(dp, id, op);
	if (vn != NULL)
		fprintf(fp, "\t\t! DT_VAR(%u) = \"%s\"", id, vn);
}

static char *
dt_dis_typestr(const dtrace_diftype_t *t, char *buf, size_t len)
{
	static const char *const ck[] = {"unknown", "integer", "float", "pointer", "array",
					 "function", "struct", "union", "enum", "forward",
					 "typedef", "volatile", "const", "restrict"};
	char kind[16], ckind[16];
	if (t->dtdt_kind == DIF_TYPE_CTF)
		strcpy(kind, "D type");
	else if (t->dtdt_kind == DIF_TYPE_STRING)
		strcpy(kind, "string");
	else
		snprintf(kind, sizeof(kind), "0x%x", t->dtdt_kind);
	if (t->dtdt_ckind < sizeof(ck) / sizeof(ck[0]))
		snprintf(ckind, sizeof(ckind), "%s", ck[t->dtdt_ckind]);
	else
		snprintf(ckind, sizeof(ckind), "0x%x", t->dtdt_ckind);
	if (t->dtdt_flags & (DIF_TF_BYREF | DIF_TF_BYUREF))
		snprintf(buf, len, "%s (%s) by %sref (size %lu)", kind, ckind,
			 (t->dtdt_flags & DIF_TF_BYUREF) ? "user " : "", (unsigned long)t->dtdt_size);
	else
		snprintf(buf, len, "%s (%s) (size %lu)", kind, ckind, (unsigned long)t->dtdt_size);
	return buf;
}

void
dt_dis_difo(const dt_difo_t *dp, FILE *fp)
{
	char type[128];

	/* glibc's %p has the 0x DTrace writes before Solaris's bare hex */
	fprintf(fp, "\nDIFO %p returns %s\n", (const void *)dp, dt_dis_typestr(&dp->asrtype, type, sizeof(type)));
	fprintf(fp, "%-3s %-8s    %s\n", "OFF", "OPCODE", "INSTRUCTION");
	for (uint32_t i = 0; i < dp->len; i++) {
		dif_instr_t in = dp->buf[i];
		uint32_t op = DIF_INSTR_OP(in);
		if (op >= sizeof(dt_optab) / sizeof(dt_optab[0]))
			op = 0;
		const char *name = dt_optab[op].name;
		fprintf(fp, "%02u: %08x    ", i, in);
		switch (dt_optab[op].fmt) {
		case F_STR: fprintf(fp, "%s", name); break;
		case F_LOG:
			fprintf(fp, "%-4s %%r%u, %%r%u, %%r%u", name, DIF_INSTR_R1(in), DIF_INSTR_R2(in), DIF_INSTR_RD(in));
			break;
		case F_R1RD: fprintf(fp, "%-4s %%r%u, %%r%u", name, DIF_INSTR_R1(in), DIF_INSTR_RD(in)); break;
		case F_CMP: fprintf(fp, "%-4s %%r%u, %%r%u", name, DIF_INSTR_R1(in), DIF_INSTR_R2(in)); break;
		case F_TST: fprintf(fp, "%-4s %%r%u", name, DIF_INSTR_R1(in)); break;
		case F_BR: fprintf(fp, "%-4s %u", name, DIF_INSTR_LABEL(in)); break;
		case F_LOAD: fprintf(fp, "%-4s [%%r%u], %%r%u", name, DIF_INSTR_R1(in), DIF_INSTR_RD(in)); break;
		case F_STORE: fprintf(fp, "%-4s %%r%u, [%%r%u]", name, DIF_INSTR_R1(in), DIF_INSTR_RD(in)); break;
		case F_RET: fprintf(fp, "%-4s %%r%u", name, DIF_INSTR_RD(in)); break;
		case F_SETX:
			fprintf(fp, "%-4s DT_INTEGER[%u], %%r%u", name, DIF_INSTR_INTEGER(in), DIF_INSTR_RD(in));
			if (DIF_INSTR_INTEGER(in) < dp->intlen)
				fprintf(fp, "\t\t! 0x%llx", (unsigned long long)dp->inttab[DIF_INSTR_INTEGER(in)]);
			break;
		case F_SETS:
			fprintf(fp, "%-4s DT_STRING[%u], %%r%u", name, DIF_INSTR_STRING(in), DIF_INSTR_RD(in));
			if (DIF_INSTR_STRING(in) < dp->strlen)
				fprintf(fp, "\t\t! \"%s\"", dp->strtab + DIF_INSTR_STRING(in));
			break;
		case F_LDA:
			fprintf(fp, "%-4s DT_VAR(%u), %%r%u, %%r%u", name, DIF_INSTR_R1(in), DIF_INSTR_R2(in), DIF_INSTR_RD(in));
			dt_dis_varnote(dp, DIF_INSTR_R1(in), name, fp);
			break;
		case F_LDV:
			fprintf(fp, "%-4s DT_VAR(%u), %%r%u", name, DIF_INSTR_VAR(in), DIF_INSTR_RD(in));
			dt_dis_varnote(dp, DIF_INSTR_VAR(in), name, fp);
			break;
		case F_STV:
			fprintf(fp, "%-4s %%r%u, DT_VAR(%u)", name, DIF_INSTR_RS(in), DIF_INSTR_VAR(in));
			dt_dis_varnote(dp, DIF_INSTR_VAR(in), name, fp);
			break;
		case F_STA:
			fprintf(fp, "%-4s DT_VAR(%u), %%r%u, %%r%u", name, DIF_INSTR_VAR(in), DIF_INSTR_R2(in), DIF_INSTR_RD(in));
			dt_dis_varnote(dp, DIF_INSTR_VAR(in), name, fp);
			break;
		case F_CALL: {
			uint32_t s = DIF_INSTR_SUBR(in);
			fprintf(fp, "%-4s DIF_SUBR(%u), %%r%u\t\t! %s", name, s, DIF_INSTR_RD(in),
				s < sizeof(dt_subrnames) / sizeof(dt_subrnames[0]) && dt_subrnames[s][0] != '\0'
					? dt_subrnames[s] : "unknown");
			break;
		}
		case F_PUSH: {
			/* pushtv names no size register; the note's tabs come with the note */
			uint32_t t = DIF_INSTR_TYPE(in);
			if (op == DIF_OP_PUSHTV)
				fprintf(fp, "%-4s DT_TYPE(%u), %%r%u", name, t, DIF_INSTR_RS(in));
			else
				fprintf(fp, "%-4s DT_TYPE(%u), %%r%u, %%r%u", name, t, DIF_INSTR_R2(in), DIF_INSTR_RS(in));
			if (t < 2)
				fprintf(fp, "%s! DT_TYPE(%u) = %s", op == DIF_OP_PUSHTV ? "\t\t" : "\t", t,
					t == 0 ? "D type" : "string");
			break;
		}
		case F_XL: fprintf(fp, "%-4s DT_XLREF[%u], %%r%u", name, DIF_INSTR_XLREF(in), DIF_INSTR_RD(in)); break;
		}
		fprintf(fp, "\n");
	}
	if (dp->varlen != 0)
		fprintf(fp, "\n%-16s %-4s %-3s %-3s %-4s %s\n", "NAME", "ID", "KND", "SCP", "FLAG", "TYPE");
	for (uint32_t i = 0; i < dp->varlen; i++) {
		const dtrace_difv_t *v = &dp->vartab[i];
		char kind[16], scope[16], flags[32] = {0};
		uint32_t other = v->dtdv_flags & ~(uint32_t)(DIFV_F_REF | DIFV_F_MOD);
		if (v->dtdv_kind == DIFV_KIND_ARRAY)
			strcpy(kind, "arr");
		else if (v->dtdv_kind == DIFV_KIND_SCALAR)
			strcpy(kind, "scl");
		else
			snprintf(kind, sizeof(kind), "%u", v->dtdv_kind);
		if (v->dtdv_scope == DIFV_SCOPE_GLOBAL)
			strcpy(scope, "glb");
		else if (v->dtdv_scope == DIFV_SCOPE_THREAD)
			strcpy(scope, "tls");
		else if (v->dtdv_scope == DIFV_SCOPE_LOCAL)
			strcpy(scope, "loc");
		else
			snprintf(scope, sizeof(scope), "%u", v->dtdv_scope);
		if (other != 0)
			snprintf(flags, sizeof(flags), "/0x%x", other);
		if (v->dtdv_flags & DIFV_F_REF)
			strcat(flags, "/r");
		if (v->dtdv_flags & DIFV_F_MOD)
			strcat(flags, "/w");
		fprintf(fp, "%-16s %-4x %-3s %-3s %-4s %s\n",
			v->dtdv_name < dp->strlen ? dp->strtab + v->dtdv_name : "", v->dtdv_id, kind, scope,
			flags + (flags[0] != '\0'), dt_dis_typestr(&v->dtdv_type, type, sizeof(type)));
	}
}

void
dt_cprog_disassemble(const dt_cprog_t *prog, FILE *fp)
{
	if (prog == NULL || prog->impl == NULL)
		return;
	for (const dt_difo_t *dp = prog->impl->difos; dp != NULL; dp = dp->next)
		if (dp->assembled)
			dt_dis_difo(dp, fp);
}

const dt_caction_t *
dt_cprog_action(const dt_cprog_t *prog, uint64_t uarg)
{
	if (prog == NULL || uarg < prog->uarg_base || uarg - prog->uarg_base >= prog->nacts)
		return NULL;
	return &prog->acts[uarg - prog->uarg_base];
}

const dt_cecb_t *
dt_cprog_ecb(const dt_cprog_t *prog, uint64_t uarg)
{
	if (prog == NULL || uarg < prog->uarg_base || uarg - prog->uarg_base >= prog->necbs)
		return NULL;
	return &prog->ecbs[uarg - prog->uarg_base];
}

void
dt_cprog_free(dt_cprog_t *prog)
{
	if (prog == NULL)
		return;
	free(prog->dof);
	for (size_t i = 0; i < prog->ndescs; i++)
		free(prog->descs[i].text);
	free(prog->descs);
	free(prog->ecbs);
	for (size_t i = 0; i < prog->nacts; i++)
		free((char *)prog->acts[i].format);
	free(prog->acts);
	for (size_t i = 0; i < prog->naggs; i++)
		free(prog->aggs[i].name);
	free(prog->aggs);
	for (size_t i = 0; i < prog->noptions; i++) {
		free(prog->options[i].name);
		free(prog->options[i].value);
	}
	free(prog->options);
	free(prog->prvattrs);
	for (size_t i = 0; i < prog->nproviders; i++) {
		dt_cprovider_t *pv = &prog->providers[i];
		for (size_t j = 0; j < pv->nprobes; j++) {
			for (int k = 0; k < pv->probes[j].nargs; k++)
				free(pv->probes[j].args[k]);
			free(pv->probes[j].args);
			for (int k = 0; k < pv->probes[j].nxargs; k++)
				free(pv->probes[j].xargs[k]);
			free(pv->probes[j].xargs);
			free(pv->probes[j].map);
			free(pv->probes[j].name);
		}
		free(pv->probes);
		free(pv->name);
	}
	free(prog->providers);
	if (prog->impl != NULL) {
		dt_difo_t *dp = prog->impl->difos, *n;
		for (; dp != NULL; dp = n) {
			n = dp->next;
			dt_difo_free(dp);
		}
		dt_progmem_free(prog->impl);
		free(prog->impl);
	}
	free(prog);
}
