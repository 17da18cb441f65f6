/*
 * dt_status.c: drops, errors and option changes, worded as DTrace words
 * them and delivered to the client's handlers.
 *
 * Drops come from three places: a principal or aggregation buffer snapshot
 * (per CPU: "3 drops on CPU 1"), and the state-wide counters in
 * dtrace_status_t (dynamic variables, speculations, ...), reported as the
 * difference from the previous status.  Errors are firings of the
 * library's own dtrace:::ERROR enabling, whose five records are the
 * faulting EPID, action, DIF offset, fault and address.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dt_impl.h"

int
dtrace_handle_err(dtrace_hdl_t *dtp, dtrace_handle_err_f *hdlr, void *arg)
{
	if (dtp->dt_errhdlr != NULL)
		return dt_set_errno(dtp, EALREADY);
	/*
	 * DTrace compiles its ERROR program here, and that first compilation
	 * loads the D libraries: dtrace -L dir -e, which compiles nothing
	 * else, still reads them and reports a library error (a dependency
	 * cycle) as failing to establish the handler.
	 */
	if (dt_load_libs(dtp) != 0)
		return -1;
	/*
	 * DTrace compiles and enables its ERROR program here, so register
	 * counts (-x iregs, tregs) it cannot be compiled with, that its DOF
	 * header cannot hold (EOVERFLOW) or that the core does not have fail
	 * here.
	 */
	if (dtp->dt_iregs < 2) {
		/* each of its trace()s needs one register besides %r0 */
		(void)snprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg),
			       "Insufficient registers to generate code");
		return dt_set_errno(dtp, EDT_COMPILER);
	}
	if (dtp->dt_iregs > UINT8_MAX || dtp->dt_tregs > UINT8_MAX)
		return dt_set_errno(dtp, EOVERFLOW);
	if (dtp->dt_backend != NULL && (dtp->dt_iregs > DIF_DIR_NREGS || dtp->dt_tregs > DIF_DTR_NREGS))
		return dt_set_errno(dtp, EDT_DIFINVAL);
	dtp->dt_errhdlr = hdlr;
	dtp->dt_errarg = arg;
	/* the ERROR enabling itself goes in at dtrace_go() */
	dtp->dt_errprog_on = 1;
	return 0;
}

int
dtrace_handle_drop(dtrace_hdl_t *dtp, dtrace_handle_drop_f *hdlr, void *arg)
{
	if (dtp->dt_drophdlr != NULL)
		return dt_set_errno(dtp, EALREADY);
	dtp->dt_drophdlr = hdlr;
	dtp->dt_droparg = arg;
	return 0;
}

int
dtrace_handle_setopt(dtrace_hdl_t *dtp, dtrace_handle_setopt_f *hdlr, void *arg)
{
	if (dtp->dt_setopthdlr != NULL)
		return dt_set_errno(dtp, EALREADY);
	dtp->dt_setopthdlr = hdlr;
	dtp->dt_setoptarg = arg;
	return 0;
}

int
dt_handle_setopt(dtrace_hdl_t *dtp, dtrace_setoptdata_t *data)
{
	if (dtp->dt_setopthdlr == NULL)
		return 0;
	if (dtp->dt_setopthdlr(data, dtp->dt_setoptarg) == DTRACE_HANDLE_ABORT)
		return dt_set_errno(dtp, EDT_DIRABORT);
	return 0;
}

/* DTrace's tag for each kind of drop, the prefix -x droptags adds. */
static const char *
dt_droptag(dtrace_dropkind_t kind)
{
	static const char *const tags[] = {
		[DTRACEDROP_PRINCIPAL] = "DTRACEDROP_PRINCIPAL",
		[DTRACEDROP_AGGREGATION] = "DTRACEDROP_AGGREGATION",
		[DTRACEDROP_DYNAMIC] = "DTRACEDROP_DYNAMIC",
		[DTRACEDROP_DYNRINSE] = "DTRACEDROP_DYNRINSE",
		[DTRACEDROP_DYNDIRTY] = "DTRACEDROP_DYNDIRTY",
		[DTRACEDROP_SPEC] = "DTRACEDROP_SPEC",
		[DTRACEDROP_SPECBUSY] = "DTRACEDROP_SPECBUSY",
		[DTRACEDROP_SPECUNAVAIL] = "DTRACEDROP_SPECUNAVAIL",
		[DTRACEDROP_STKSTROVERFLOW] = "DTRACEDROP_STKSTROVERFLOW",
		[DTRACEDROP_DBLERROR] = "DTRACEDROP_DBLERROR",
	};

	if ((unsigned)kind < sizeof(tags) / sizeof(tags[0]) && tags[kind] != NULL)
		return tags[kind];
	return "DTRACEDROP_UNKNOWN";
}

/*
 * Word the drop ("3 drops on CPU 1\n", "2 speculative drops\n"), tagged
 * with its kind under -x droptags, and hand it to the client's handler;
 * without one, drops abort.
 */
static int
dt_drop(dtrace_hdl_t *dtp, int cpu, dtrace_dropkind_t kind, uint64_t howmany, uint64_t total,
	const char *what, const char *tail)
{
	dtrace_dropdata_t drop;
	char str[160];
	int n = 0;

	memset(&drop, 0, sizeof(drop));
	drop.dtdda_handle = dtp;
	drop.dtdda_cpu = cpu;
	drop.dtdda_kind = kind;
	drop.dtdda_drops = howmany;
	drop.dtdda_total = total;
	drop.dtdda_msg = str;
	if (dtp->dt_droptags)
		n = snprintf(str, sizeof(str), "[%s] ", dt_droptag(kind));
	(void)snprintf(str + n, sizeof(str) - (size_t)n, "%llu %s%s%s\n",
	               (unsigned long long)howmany, what, howmany > 1 ? "s" : "", tail);

	if (dtp->dt_drophdlr == NULL)
		return dt_set_errno(dtp, EDT_DROPABORT);
	if (dtp->dt_drophdlr(&drop, dtp->dt_droparg) == DTRACE_HANDLE_ABORT)
		return dt_set_errno(dtp, EDT_DROPABORT);
	return 0;
}

int
dt_handle_cpudrop(dtrace_hdl_t *dtp, int cpu, dtrace_dropkind_t what, uint64_t howmany)
{
	char tail[32];

	(void)snprintf(tail, sizeof(tail), " on CPU %d", cpu);
	return dt_drop(dtp, cpu, what, howmany, 0,
	               what == DTRACEDROP_PRINCIPAL ? "drop" : "aggregation drop", tail);
}

static const struct {
	dtrace_dropkind_t kind;
	size_t offset;
	const char *str;
	const char *msg;
} dt_droptab[] = {
	{DTRACEDROP_DYNAMIC, offsetof(dtrace_status_t, dtst_dyndrops), "dynamic variable drop", ""},
	{DTRACEDROP_DYNRINSE, offsetof(dtrace_status_t, dtst_dyndrops_rinsing),
	 "dynamic variable drop", " with non-empty rinsing list"},
	{DTRACEDROP_DYNDIRTY, offsetof(dtrace_status_t, dtst_dyndrops_dirty),
	 "dynamic variable drop", " with non-empty dirty list"},
	{DTRACEDROP_SPEC, offsetof(dtrace_status_t, dtst_specdrops), "speculative drop", ""},
	{DTRACEDROP_SPECBUSY, offsetof(dtrace_status_t, dtst_specdrops_busy), "failed speculation",
	 " (available buffer(s) still busy)"},
	{DTRACEDROP_SPECUNAVAIL, offsetof(dtrace_status_t, dtst_specdrops_unavail),
	 "failed speculation", " (no speculative buffer available)"},
	{DTRACEDROP_STKSTROVERFLOW, offsetof(dtrace_status_t, dtst_stkstroverflows),
	 "jstack()/ustack() string table overflow", ""},
	{DTRACEDROP_DBLERROR, offsetof(dtrace_status_t, dtst_dblerrors), "error",
	 " in ERROR probe enabling"},
};

int
dt_handle_status(dtrace_hdl_t *dtp, const dtrace_status_t *old, const dtrace_status_t *new)
{
	size_t i;

	if (new->dtst_killed && !old->dtst_killed)
		return dt_set_errno(dtp, EDT_BRICKED);

	for (i = 0; i < sizeof(dt_droptab) / sizeof(dt_droptab[0]); i++) {
		uint64_t nval, oval;

		memcpy(&nval, (const char *)new + dt_droptab[i].offset, sizeof(nval));
		memcpy(&oval, (const char *)old + dt_droptab[i].offset, sizeof(oval));
		if (nval != oval && dt_drop(dtp, DTRACE_CPUALL, dt_droptab[i].kind, nval - oval, nval,
		                            dt_droptab[i].str, dt_droptab[i].msg) != 0)
			return -1;
	}
	/* A backend whose probes fire in traced processes' own threads
	 * (Linux) may have had to refuse some: their records are lost. */
	for (i = 0; dtp->dt_backend != NULL && dtp->dt_backend->proc_refused != NULL &&
	            i < (size_t)dtp->dt_nprocs;
	     i++) {
		char tail[96];
		uint64_t n = dtp->dt_backend->proc_refused(dtp->dt_procs[i].dpr_pid);

		(void)snprintf(tail, sizeof(tail), " in pid %d (probe firings with no probe context free)",
		               dtp->dt_procs[i].dpr_pid);
		if (n != 0 && dt_drop(dtp, DTRACE_CPUALL, DTRACEDROP_PRINCIPAL, n, 0, "drop", tail) != 0)
			return -1;
	}
	return 0;
}

/* Hand an error to the client's handler; without one, errors abort. */
static int
dt_error(dtrace_hdl_t *dtp, dtrace_errdata_t *err)
{
	if (dtp->dt_errhdlr == NULL)
		return dt_set_errno(dtp, EDT_ERRABORT);
	if (dtp->dt_errhdlr(err, dtp->dt_errarg) == DTRACE_HANDLE_ABORT)
		return dt_set_errno(dtp, EDT_ERRABORT);
	return 0;
}

/* The ERROR enabling's records, all 64-bit: epid, action, offset, fault, address. */
#define DT_ERRREC(ndx) (*(const uint64_t *)(data->dtpda_data + epd->dtepd_rec[(ndx)].dtrd_offset))

int
dt_handle_err(dtrace_hdl_t *dtp, dtrace_probedata_t *data)
{
	const dtrace_eprobedesc_t *epd = data->dtpda_edesc;
	const dtrace_probedesc_t *pd = data->dtpda_pdesc;
	dtrace_eprobedesc_t *errepd;
	dtrace_probedesc_t *errpd;
	dtrace_errdata_t err;
	char where[32], details[48], offinfo[48], str[1024];
	dtrace_epid_t epid;
	int i;

	if (epd->dtepd_nrecs != 5 || strcmp(pd->dtpd_provider, "dtrace") != 0 ||
	    strcmp(pd->dtpd_name, "ERROR") != 0)
		return dt_set_errno(dtp, EDT_BADERROR);
	for (i = 0; i < 5; i++) {
		if (epd->dtepd_rec[i].dtrd_size != sizeof(uint64_t))
			return dt_set_errno(dtp, EDT_BADERROR);
	}

	epid = (dtrace_epid_t)DT_ERRREC(0);
	if (dt_epid_lookup(dtp, epid, &errepd, &errpd) != 0)
		return dt_set_errno(dtp, EDT_BADERROR);

	memset(&err, 0, sizeof(err));
	err.dteda_handle = dtp;
	err.dteda_edesc = errepd;
	err.dteda_pdesc = errpd;
	err.dteda_cpu = data->dtpda_cpu;
	err.dteda_action = (int)DT_ERRREC(1);
	err.dteda_offset = (int)DT_ERRREC(2);
	err.dteda_fault = (int)DT_ERRREC(3);
	err.dteda_addr = DT_ERRREC(4);

	if (err.dteda_action == 0)
		(void)snprintf(where, sizeof(where), "predicate");
	else
		(void)snprintf(where, sizeof(where), "action #%d", err.dteda_action);
	if (err.dteda_offset != -1)
		(void)snprintf(offinfo, sizeof(offinfo), " at DIF offset %d", err.dteda_offset);
	else
		offinfo[0] = '\0';
	if (err.dteda_fault == DTRACEFLT_BADADDR || err.dteda_fault == DTRACEFLT_BADALIGN ||
	    err.dteda_fault == DTRACEFLT_BADSTACK)
		(void)snprintf(details, sizeof(details), " (0x%llx)",
		               (unsigned long long)err.dteda_addr);
	else
		details[0] = '\0';

	(void)snprintf(str, sizeof(str), "error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s%s in %s%s\n",
	               epid, errpd->dtpd_id, errpd->dtpd_provider, errpd->dtpd_mod,
	               errpd->dtpd_func, errpd->dtpd_name, dtrace_faultstr(dtp, err.dteda_fault),
	               details, where, offinfo);
	err.dteda_msg = str;
	return dt_error(dtp, &err);
}

/* A fault the library itself found while consuming (freopen, setopt). */
int
dt_handle_liberr(dtrace_hdl_t *dtp, const dtrace_probedata_t *data, const char *faultstr)
{
	const dtrace_probedesc_t *errpd = data->dtpda_pdesc;
	dtrace_errdata_t err;
	char str[2048];

	memset(&err, 0, sizeof(err));
	err.dteda_handle = dtp;
	err.dteda_edesc = data->dtpda_edesc;
	err.dteda_pdesc = data->dtpda_pdesc;
	err.dteda_cpu = data->dtpda_cpu;
	err.dteda_action = -1;
	err.dteda_offset = -1;
	err.dteda_fault = DTRACEFLT_LIBRARY;
	(void)snprintf(str, sizeof(str), "error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s\n",
	               data->dtpda_edesc->dtepd_epid, errpd->dtpd_id, errpd->dtpd_provider,
	               errpd->dtpd_mod, errpd->dtpd_func, errpd->dtpd_name, faultstr);
	err.dteda_msg = str;
	return dt_error(dtp, &err);
}
