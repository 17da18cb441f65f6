/*
 * dt_consume.c: reading principal buffers and turning records into text.
 *
 * Each consumption pass snapshots every CPU's principal buffer (BUFSNAP
 * switches the CPU's active and inactive buffers and copies the inactive one
 * out) and then hands out records across CPUs in timestamp order.  A record
 * is only safe to hand out once no CPU can still produce an older one: the
 * pass hands out records up to the earliest snapshot time of the pass and
 * keeps the rest, per CPU, for the next pass.  After STOP everything goes.
 *
 * A record is an EPID and a timestamp followed by the data of the enabled
 * probe's actions at the offsets its description gives.  The caller's probe
 * callback sees the firing first (the dtrace command prints its "CPU ID
 * FUNCTION:NAME" prefix there), then the record callback each action, and
 * the library formats what the callbacks leave to it: printf()/printa()
 * through the printf engine, trace() by size, stacks symbolized, and the
 * consumer-side actions (clear, normalize, trunc, setopt, ftruncate)
 * applied to the handle's aggregations.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dt_impl.h"
#include "dt_printf.h"

/* --- Consumer-side aggregation actions ---------------------------------- */

typedef struct dt_aggop {
	dtrace_aggvarid_t id;
	uint64_t arg;
} dt_aggop_t;

static dtrace_aggvarid_t
dt_aggdata_varid(const dtrace_aggdata_t *aggdata)
{
	const dtrace_aggdesc_t *agg = aggdata->dtada_desc;

	if (agg->dtagd_varid != DTRACE_AGGVARIDNONE)
		return agg->dtagd_varid;
	if (agg->dtagd_nrecs < 1 || agg->dtagd_rec[0].dtrd_size != sizeof(dtrace_aggvarid_t))
		return DTRACE_AGGVARIDNONE;
	return *(const dtrace_aggvarid_t *)(aggdata->dtada_data + agg->dtagd_rec[0].dtrd_offset);
}

static int
dt_clear_agg(const dtrace_aggdata_t *aggdata, void *arg)
{
	const dt_aggop_t *op = arg;

	return dt_aggdata_varid(aggdata) == op->id ? DTRACE_AGGWALK_CLEAR : DTRACE_AGGWALK_NEXT;
}

static int
dt_denormalize_agg(const dtrace_aggdata_t *aggdata, void *arg)
{
	const dt_aggop_t *op = arg;

	return dt_aggdata_varid(aggdata) == op->id ? DTRACE_AGGWALK_DENORMALIZE
	                                           : DTRACE_AGGWALK_NEXT;
}

static int
dt_normalize_agg(const dtrace_aggdata_t *aggdata, void *arg)
{
	const dt_aggop_t *op = arg;

	if (dt_aggdata_varid(aggdata) != op->id)
		return DTRACE_AGGWALK_NEXT;
	((dtrace_aggdata_t *)aggdata)->dtada_normal = op->arg;
	return DTRACE_AGGWALK_NORMALIZE;
}

static int
dt_trunc_agg(const dtrace_aggdata_t *aggdata, void *arg)
{
	dt_aggop_t *op = arg;

	if (dt_aggdata_varid(aggdata) != op->id)
		return DTRACE_AGGWALK_NEXT;
	if (op->arg == 0)
		return DTRACE_AGGWALK_REMOVE;
	op->arg--;
	return DTRACE_AGGWALK_NEXT;
}

/*
 * normalize() and trunc() record the aggregation's id, then their value
 * (a LIBACT record of the same kind, 1 to 8 bytes).
 */
static int
dt_aggop_pair(dtrace_hdl_t *dtp, const char *base, const dtrace_recdesc_t *rec, uint64_t act,
	      dt_aggop_t *op, int64_t *vp, int err)
{
	uint64_t u;

	if (rec->dtrd_size != sizeof(dtrace_aggvarid_t))
		return dt_set_errno(dtp, err);
	op->id = *(const dtrace_aggvarid_t *)(base + rec->dtrd_offset);
	rec++;
	if (rec->dtrd_action != DTRACEACT_LIBACT || rec->dtrd_arg != act ||
	    dt_rec_int(base + rec->dtrd_offset, rec->dtrd_size, vp, &u) != 0)
		return dt_set_errno(dtp, err);
	return 0;
}

static int
dt_normalize(dtrace_hdl_t *dtp, const char *base, const dtrace_recdesc_t *rec)
{
	dt_aggop_t op;
	int64_t v;

	if (dt_aggop_pair(dtp, base, rec, DT_ACT_NORMALIZE, &op, &v, EDT_BADNORMAL) != 0)
		return -1;
	/* the value is unsigned in DTrace's record; 0 is rejected on use */
	op.arg = rec[1].dtrd_size == sizeof(uint64_t) ? (uint64_t)v
	                                              : (uint64_t)v & ((1ULL << (8 * rec[1].dtrd_size)) - 1);
	return dtrace_aggregate_walk(dtp, dt_normalize_agg, &op);
}

static int
dt_trunc(dtrace_hdl_t *dtp, const char *base, const dtrace_recdesc_t *rec)
{
	dtrace_aggregate_f *func = dt_trunc_agg;
	dt_aggop_t op;
	int64_t remaining;
	int rval;

	if (dt_aggop_pair(dtp, base, rec, DT_ACT_TRUNC, &op, &remaining, EDT_BADTRUNC) != 0)
		return -1;
	/* keep the largest `remaining' tuples; a negative count keeps the smallest */
	if (remaining < 0) {
		op.arg = (uint64_t)-remaining;
		rval = dtrace_aggregate_walk_valsorted(dtp, func, &op);
	} else {
		op.arg = (uint64_t)remaining;
		rval = dtrace_aggregate_walk_valrevsorted(dtp, func, &op);
	}
	return rval;
}

static int
dt_setopt(dtrace_hdl_t *dtp, const dtrace_probedata_t *data, const char *option,
	  const char *value)
{
	dtrace_setoptdata_t optdata;
	char msg[1024];

	memset(&optdata, 0, sizeof(optdata));
	(void)dtrace_getopt(dtp, option, &optdata.dtsda_oldval);
	/* tracing options are frozen while tracing runs; dtrace_setopt() says so */
	if (dtrace_setopt(dtp, option, value) == 0) {
		(void)dtrace_getopt(dtp, option, &optdata.dtsda_newval);
		optdata.dtsda_probe = data;
		optdata.dtsda_option = option;
		optdata.dtsda_handle = dtp;
		return dt_handle_setopt(dtp, &optdata);
	}
	(void)snprintf(msg, sizeof(msg), "couldn't set option \"%s\" to \"%s\": %s\n", option,
	               value, dtrace_errmsg(dtp, dtrace_errno(dtp)));
	return dt_handle_liberr(dtp, data, msg);
}

/* --- flowindent ---------------------------------------------------------- */

/*
 * "entry" (or "-entry" at the end of the name) indents, "return" outdents,
 * unless the neighbouring record is the same probe under another EPID.
 */
static void
dt_flowindent(dtrace_hdl_t *dtp, dtrace_probedata_t *data, dtrace_epid_t last, const char *buf,
	      size_t size, size_t offs)
{
	const dtrace_probedesc_t *pd = data->dtpda_pdesc;
	const dtrace_eprobedesc_t *epd = data->dtpda_edesc;
	const char *n = pd->dtpd_name, *sub;
	dtrace_flowkind_t flow = DTRACEFLOW_NONE;
	const char *str = NULL;
	int syscall = strcmp(pd->dtpd_provider, "syscall") == 0;

	if ((sub = strstr(n, "entry")) != NULL && sub[5] == '\0' && (sub == n || sub[-1] == '-')) {
		flow = DTRACEFLOW_ENTRY;
		str = syscall ? " => " : " -> ";
	} else if ((sub = strstr(n, "return")) != NULL && sub[6] == '\0' &&
	           (sub == n || sub[-1] == '-')) {
		flow = DTRACEFLOW_RETURN;
		str = syscall ? " <= " : " <- ";
	}

	if (flow == DTRACEFLOW_ENTRY && last != DTRACE_EPIDNONE && epd->dtepd_epid != last &&
	    last < dtp->dt_maxprobe && dtp->dt_pdesc[last] != NULL &&
	    pd->dtpd_id == dtp->dt_pdesc[last]->dtpd_id)
		flow = DTRACEFLOW_NONE;

	if (flow == DTRACEFLOW_RETURN) {
		dtrace_eprobedesc_t *nepd;
		dtrace_probedesc_t *npd;
		dtrace_epid_t next = DTRACE_EPIDNONE;

		offs += epd->dtepd_size;
		while (offs + sizeof(dtrace_epid_t) <= size &&
		       (next = *(const dtrace_epid_t *)(buf + offs)) == DTRACE_EPIDNONE)
			offs += sizeof(dtrace_epid_t);
		if (next != DTRACE_EPIDNONE && dt_epid_lookup(dtp, next, &nepd, &npd) == 0 &&
		    next != epd->dtepd_epid && npd->dtpd_id == pd->dtpd_id)
			flow = DTRACEFLOW_NONE;
	}

	data->dtpda_prefix = flow != DTRACEFLOW_NONE ? str : "| ";
	if (flow == DTRACEFLOW_RETURN && data->dtpda_indent > 0)
		data->dtpda_indent -= 2;
	data->dtpda_flow = flow;
}

/* --- Records ------------------------------------------------------------- */

/* What a probe or record callback said: 0 go on, 1 skip; -1 (errno set) stop. */
static int
dt_verdict(dtrace_hdl_t *dtp, int rval)
{
	switch (rval) {
	case DTRACE_CONSUME_THIS:
		return 0;
	case DTRACE_CONSUME_NEXT:
		return 1;
	case DTRACE_CONSUME_ABORT:
		return dt_set_errno(dtp, EDT_DIRABORT);
	default:
		return dt_set_errno(dtp, EDT_BADRVAL);
	}
}

/*
 * Every datum of a firing at `base' within the firing's size and at its
 * alignment (the core reserves records so); else EDT_DOFFSET or EDT_DALIGN.
 */
static int
dt_record_fits(dtrace_hdl_t *dtp, const dtrace_eprobedesc_t *epd, const char *base)
{
	int i;

	for (i = 0; i < epd->dtepd_nrecs; i++) {
		const dtrace_recdesc_t *rec = &epd->dtepd_rec[i];
		uintptr_t align = rec->dtrd_alignment > 1 ? rec->dtrd_alignment : 1;

		if ((uint64_t)rec->dtrd_offset + rec->dtrd_size > epd->dtepd_size)
			return dt_set_errno(dtp, EDT_DOFFSET);
		if (((uintptr_t)(base + rec->dtrd_offset) & (align - 1)) != 0)
			return dt_set_errno(dtp, EDT_DALIGN);
	}
	return 0;
}

/*
 * Consume the firing at buf[offs] and return the offset past it, or
 * (size_t)-1 with dt_errno set.  Filler words before it are skipped.
 */
static size_t
dt_consume_one(dtrace_hdl_t *dtp, FILE *fp, int cpu, const char *buf, size_t size, size_t offs,
	       dtrace_consume_probe_f *efunc, dtrace_consume_rec_f *rfunc, void *arg)
{
	int flow = dtp->dt_options[DTRACEOPT_FLOWINDENT] != DTRACEOPT_UNSET;
	int quiet = dtp->dt_options[DTRACEOPT_QUIET] != DTRACEOPT_UNSET;
	dtrace_eprobedesc_t *epd;
	dtrace_probedesc_t *pd;
	dtrace_probedata_t data;
	uint64_t tracememsize = 0;
	const dtrace_rechdr_t *hdr;
	dtrace_epid_t id;
	int i, n, rval;

	while (offs + sizeof(dtrace_epid_t) <= size &&
	       *(const dtrace_epid_t *)(buf + offs) == DTRACE_EPIDNONE)
		offs += sizeof(dtrace_epid_t);
	if (offs + sizeof(dtrace_rechdr_t) > size)
		return size;

	/*
	 * The buffer is whatever the processes that fire probes wrote (on the
	 * Linux host they can write it at will): a record must name an enabled
	 * probe the core knows and fit in what the snapshot holds, and each
	 * datum must sit at its alignment, or consumption stops with DTrace's
	 * error for it.
	 */
	hdr = (const dtrace_rechdr_t *)(buf + offs);
	id = hdr->dtrh_epid;
	if (dt_epid_lookup(dtp, id, &epd, &pd) != 0) {
		if (dtp->dt_errno != EDT_NOMEM)
			(void)dt_set_errno(dtp, EDT_BADEPID);
		return (size_t)-1;
	}
	if (epd->dtepd_size < sizeof(dtrace_rechdr_t) || offs + epd->dtepd_size > size) {
		(void)dt_set_errno(dtp, EDT_DOFFSET);
		return (size_t)-1;
	}
	if (dt_record_fits(dtp, epd, buf + offs) != 0)
		return (size_t)-1;

	memset(&data, 0, sizeof(data));
	data.dtpda_handle = dtp;
	data.dtpda_cpu = cpu;
	data.dtpda_edesc = epd;
	data.dtpda_pdesc = pd;
	data.dtpda_timestamp = DTRACE_RECORD_LOAD_TIMESTAMP(hdr);
	data.dtpda_data = (char *)(buf + offs);
	data.dtpda_flow = (dtrace_flowkind_t)dtp->dt_flow;
	data.dtpda_indent = dtp->dt_indent;
	data.dtpda_prefix = dtp->dt_prefix;

	if (dtp->dt_erruarg != 0 && epd->dtepd_uarg == dtp->dt_erruarg) {
		if (dt_handle_err(dtp, &data) != 0)
			return (size_t)-1;
		goto next;
	}

	if (flow)
		dt_flowindent(dtp, &data, dtp->dt_last_epid, buf, size, offs);

	rval = efunc != NULL ? efunc(&data, arg) : DTRACE_CONSUME_THIS;

	if (flow && data.dtpda_flow == DTRACEFLOW_ENTRY)
		data.dtpda_indent += 2;

	if ((rval = dt_verdict(dtp, rval)) != 0) {
		if (rval < 0)
			return (size_t)-1;
		goto next;
	}

	for (i = 0; i < epd->dtepd_nrecs; i++) {
		const dtrace_recdesc_t *rec = &epd->dtepd_rec[i];
		dtrace_actkind_t act = rec->dtrd_action;
		const char *base = buf + offs;
		const char *addr = base + rec->dtrd_offset;

		data.dtpda_data = (char *)addr;

		if (act == DTRACEACT_LIBACT) {
			dt_aggop_t op;

			switch (rec->dtrd_arg) {
			case DT_ACT_CLEAR:
				op.id = *(const dtrace_aggvarid_t *)addr;
				(void)dtrace_aggregate_walk(dtp, dt_clear_agg, &op);
				continue;
			case DT_ACT_DENORMALIZE:
				op.id = *(const dtrace_aggvarid_t *)addr;
				(void)dtrace_aggregate_walk(dtp, dt_denormalize_agg, &op);
				continue;
			case DT_ACT_FTRUNCATE:
				if (fp == NULL)
					continue;
				(void)fflush(fp);
				(void)ftruncate(fileno(fp), 0);
				(void)fseeko(fp, 0, SEEK_SET);
				continue;
			case DT_ACT_NORMALIZE:
			case DT_ACT_TRUNC:
				/* these two take the id record and the value record */
				if (i == epd->dtepd_nrecs - 1) {
					(void)dt_set_errno(dtp, rec->dtrd_arg == DT_ACT_TRUNC
					                            ? EDT_BADTRUNC
					                            : EDT_BADNORMAL);
					return (size_t)-1;
				}
				if ((rec->dtrd_arg == DT_ACT_TRUNC ? dt_trunc : dt_normalize)(dtp, base,
				                                                              rec) != 0)
					return (size_t)-1;
				i++;
				continue;
			case DT_ACT_SETOPT: {
				const dtrace_recdesc_t *valrec;
				const char *val;

				if (i == epd->dtepd_nrecs - 1) {
					(void)dt_set_errno(dtp, EDT_BADSETOPT);
					return (size_t)-1;
				}
				valrec = &epd->dtepd_rec[++i];
				if (valrec->dtrd_action != act || valrec->dtrd_arg != rec->dtrd_arg) {
					(void)dt_set_errno(dtp, EDT_BADSETOPT);
					return (size_t)-1;
				}
				/* setopt("name") has no value string */
				val = valrec->dtrd_size > sizeof(uint64_t) ? base + valrec->dtrd_offset
				                                           : "1";
				if (dt_setopt(dtp, &data, addr, val) != 0)
					return (size_t)-1;
				flow = dtp->dt_options[DTRACEOPT_FLOWINDENT] != DTRACEOPT_UNSET;
				quiet = dtp->dt_options[DTRACEOPT_QUIET] != DTRACEOPT_UNSET;
				continue;
			}
			default:
				continue;
			}
		}

		if (act == DTRACEACT_TRACEMEM_DYNSIZE && rec->dtrd_size == sizeof(uint64_t)) {
			tracememsize = *(const uint64_t *)addr;
			continue;
		}

		rval = rfunc != NULL ? rfunc(&data, rec, arg) : DTRACE_CONSUME_THIS;
		if ((rval = dt_verdict(dtp, rval)) != 0) {
			if (rval < 0)
				return (size_t)-1;
			continue;
		}

		switch (act) {
		case DTRACEACT_STACK:
			if (rec->dtrd_arg == 0) {
				(void)dt_set_errno(dtp, EDT_DMISMATCH);
				return (size_t)-1;
			}
			n = dt_print_stack(dtp, fp, NULL, addr, (int)rec->dtrd_arg,
			                   (int)(rec->dtrd_size / rec->dtrd_arg));
			goto done;
		case DTRACEACT_USTACK:
		case DTRACEACT_JSTACK:
			n = dt_print_ustack(dtp, fp, NULL, addr, rec->dtrd_arg);
			goto done;
		case DTRACEACT_SYM:
			n = dt_print_sym(dtp, fp, NULL, addr);
			goto done;
		case DTRACEACT_MOD:
			n = dt_print_mod(dtp, fp, NULL, addr);
			goto done;
		case DTRACEACT_USYM:
		case DTRACEACT_UADDR:
			n = dt_print_usym(dtp, fp, addr, act);
			goto done;
		case DTRACEACT_UMOD:
			n = dt_print_umod(dtp, fp, NULL, addr);
			goto done;
		default:
			break;
		}

		if (DTRACEACT_ISPRINTFLIKE(act)) {
			dt_pfargv_t *pfv = dt_format_lookup(dtp, rec->dtrd_format,
			                                    act == DTRACEACT_PRINTA);

			if (pfv != NULL) {
				switch (act) {
				case DTRACEACT_PRINTF:
					n = dtrace_fprintf(dtp, fp, pfv, &data, rec,
					                   (unsigned)(epd->dtepd_nrecs - i), base,
					                   epd->dtepd_size);
					break;
				case DTRACEACT_PRINTA:
					n = dtrace_fprinta(dtp, fp, pfv, &data, rec,
					                   (unsigned)(epd->dtepd_nrecs - i), base,
					                   epd->dtepd_size);
					break;
				case DTRACEACT_SYSTEM:
					n = dtrace_system(dtp, fp, pfv, &data, rec,
					                  (unsigned)(epd->dtepd_nrecs - i), base,
					                  epd->dtepd_size);
					break;
				default:
					n = dtrace_freopen(dtp, fp, pfv, &data, rec,
					                   (unsigned)(epd->dtepd_nrecs - i), base,
					                   epd->dtepd_size);
					break;
				}
				if (n < 0)
					return (size_t)-1;
				if (n > 0)
					i += n - 1;
				continue;
			}
		}

		/* print(): the record by the type the compiler recorded for it */
		if (act == DTRACEACT_DIFEXPR && dtp->dt_printtype != NULL) {
			const struct dt_ctype *pt = dtp->dt_printtype(dtp, rec->dtrd_uarg);

			if (pt != NULL) {
				n = dt_print_typed(dtp, fp, pt, addr, rec->dtrd_size);
				if (n < 0)
					return (size_t)-1;
				if (n > 0)
					continue;
			}
		}

		if (act == DTRACEACT_PRINTA) {
			/* printa() without a format: the default layout */
			dtrace_aggvarid_t *aggvars;
			dt_print_aggdata_t pdd;
			int j, naggvars = 0;

			if ((aggvars = dt_alloc(dtp, sizeof(*aggvars) *
			                                 (size_t)(epd->dtepd_nrecs - i))) == NULL)
				return (size_t)-1;
			for (j = i; j < epd->dtepd_nrecs; j++) {
				const dtrace_recdesc_t *nrec = &epd->dtepd_rec[j];

				if (!dt_same_stmt(dtp, nrec->dtrd_uarg, rec->dtrd_uarg))
					break;
				if (nrec->dtrd_action != act) {
					free(aggvars);
					(void)dt_set_errno(dtp, EDT_BADAGG);
					return (size_t)-1;
				}
				aggvars[naggvars++] =
				    *(const dtrace_aggvarid_t *)(base + nrec->dtrd_offset);
			}
			i = j - 1;
			memset(&pdd, 0, sizeof(pdd));
			pdd.dtpa_dtp = dtp;
			pdd.dtpa_fp = fp;
			if (dt_printf(dtp, fp, "\n") != 0) {
				free(aggvars);
				return (size_t)-1;
			}
			if (naggvars == 1) {
				pdd.dtpa_id = aggvars[0];
				n = dtrace_aggregate_walk_sorted(dtp, dt_print_agg, &pdd);
			} else {
				n = dtrace_aggregate_walk_joined(dtp, aggvars, naggvars, dt_print_aggs,
				                                 &pdd);
			}
			free(aggvars);
			if (n < 0)
				return (size_t)-1;
			continue;
		}

		if (act == DTRACEACT_TRACEMEM) {
			if (tracememsize == 0 || tracememsize > rec->dtrd_size)
				tracememsize = rec->dtrd_size;
			n = dt_print_bytes(dtp, fp, addr, (size_t)tracememsize, -33, quiet, 1);
			tracememsize = 0;
			goto done;
		}

		switch (rec->dtrd_size) {
		case sizeof(uint64_t):
			n = dt_printf(dtp, fp, quiet ? "%lld" : " %16lld",
			              (long long)*(const int64_t *)addr);
			break;
		case sizeof(uint32_t):
			n = dt_printf(dtp, fp, quiet ? "%d" : " %8d", (int)*(const int32_t *)addr);
			break;
		case sizeof(uint16_t):
			n = dt_printf(dtp, fp, quiet ? "%d" : " %5d", (int)*(const uint16_t *)addr);
			break;
		case sizeof(uint8_t):
			n = dt_printf(dtp, fp, quiet ? "%d" : " %3d", (int)*(const uint8_t *)addr);
			break;
		default:
			n = dt_print_bytes(dtp, fp, addr, rec->dtrd_size, -33, quiet, 0);
			break;
		}
done:
		if (n != 0)
			return (size_t)-1;
	}

	/* a NULL record: the firing is complete */
	if (rfunc != NULL)
		(void)rfunc(&data, NULL, arg);
next:
	dtp->dt_flow = (int)data.dtpda_flow;
	dtp->dt_indent = data.dtpda_indent;
	dtp->dt_prefix = data.dtpda_prefix;
	dtp->dt_last_epid = id;
	return offs + epd->dtepd_size;
}

/* Consume every firing in buf[0..size) as CPU `cpu' produced it. */
int
dt_consume_records(dtrace_hdl_t *dtp, FILE *fp, int cpu, const char *buf, size_t size,
		   dtrace_consume_probe_f *pf, dtrace_consume_rec_f *rf, void *arg)
{
	size_t offs = 0;

	while (offs < size) {
		if ((offs = dt_consume_one(dtp, fp, cpu, buf, size, offs, pf, rf, arg)) == (size_t)-1)
			return -1;
	}
	return 0;
}

/* --- Buffers ------------------------------------------------------------- */

/*
 * Timestamp of the next firing in cb, or UINT64_MAX when none is left.  No
 * firing is younger than the snapshot that brought it: a later stamp was
 * forged (a traced process can write the buffers), and is taken as the
 * snapshot's time, so that it cannot hold the CPU's records back -- and
 * their memory growing -- pass after pass.
 */
static uint64_t
dt_cpubuf_next(dt_cpubuf_t *cb)
{
	uint64_t ts;

	while (cb->dtcb_offs + sizeof(dtrace_epid_t) <= cb->dtcb_size &&
	       *(const dtrace_epid_t *)(cb->dtcb_data + cb->dtcb_offs) == DTRACE_EPIDNONE)
		cb->dtcb_offs += sizeof(dtrace_epid_t);
	if (cb->dtcb_offs + sizeof(dtrace_rechdr_t) > cb->dtcb_size)
		return UINT64_MAX;
	ts = DTRACE_RECORD_LOAD_TIMESTAMP((const dtrace_rechdr_t *)(cb->dtcb_data + cb->dtcb_offs));
	return ts < cb->dtcb_latest ? ts : cb->dtcb_latest;
}

/*
 * Append snapshot data to what CPU cb still holds.  Records need their
 * 8-byte alignment kept: the remnant keeps its offset modulo 8, and the new
 * data starts after 4-byte filler words where its offset in the snapshot
 * falls modulo 8 -- for a wrapped ring, the oldest record's offset, so that
 * both the part from there to the end and the part from the top (which
 * follows it at a multiple of 8, snapshots being whole words) stay aligned.
 */
static int
dt_cpubuf_append(dtrace_hdl_t *dtp, dt_cpubuf_t *cb, const char *data, size_t size,
		 size_t oldest)
{
	size_t rest = cb->dtcb_size > cb->dtcb_offs ? cb->dtcb_size - cb->dtcb_offs : 0;
	size_t mis = cb->dtcb_offs & 7, pad, total, start;
	char *nd;

	pad = (mis + rest) & 7;
	pad = pad != 0 ? 8 - pad : 0;
	start = mis + rest + pad + (oldest & 7);
	total = start + size;
	if ((nd = dt_calloc(dtp, total)) == NULL)
		return -1;
	if (rest != 0)
		memcpy(nd + mis, cb->dtcb_data + cb->dtcb_offs, rest);
	/* a wrapped ring buffer: oldest data first */
	memcpy(nd + start, data + oldest, size - oldest);
	memcpy(nd + start + (size - oldest), data, oldest);
	free(cb->dtcb_data);
	cb->dtcb_data = nd;
	cb->dtcb_size = total;
	cb->dtcb_offs = mis;
	return 0;
}

int
dtrace_consume(dtrace_hdl_t *dtp, FILE *fp, dtrace_consume_probe_f *pf,
	       dtrace_consume_rec_f *rf, void *arg)
{
	dtrace_optval_t interval = dtp->dt_options[DTRACEOPT_SWITCHRATE];
	dtrace_optval_t bufsize = dtp->dt_options[DTRACEOPT_BUFSIZE];
	int64_t now = dt_gethrtime();
	uint64_t limit = UINT64_MAX, *drops;
	int cpu, rval = 0;

	if (dtp->dt_lastswitch != 0) {
		if (now - dtp->dt_lastswitch < interval)
			return 0;
		dtp->dt_lastswitch += interval;
	} else {
		dtp->dt_lastswitch = now;
	}
	if (!dtp->dt_active)
		return dt_set_errno(dtp, EINVAL);
	if (bufsize == DTRACEOPT_UNSET || bufsize <= 0)
		return 0;

	if (dtp->dt_cpubufs == NULL &&
	    (dtp->dt_cpubufs = dt_calloc(dtp, sizeof(dt_cpubuf_t) * (size_t)dtp->dt_ncpu)) == NULL)
		return -1;
	if (dtp->dt_snapsize != (size_t)bufsize) {
		free(dtp->dt_snapbuf);
		if ((dtp->dt_snapbuf = dt_alloc(dtp, (size_t)bufsize)) == NULL) {
			dtp->dt_snapsize = 0;
			return -1;
		}
		dtp->dt_snapsize = (size_t)bufsize;
	}
	if ((drops = dt_calloc(dtp, sizeof(uint64_t) * (size_t)dtp->dt_ncpu)) == NULL)
		return -1;

	for (cpu = 0; cpu < dtp->dt_ncpu; cpu++) {
		dtrace_bufdesc_t desc;

		memset(&desc, 0, sizeof(desc));
		desc.dtbd_size = dtp->dt_snapsize;
		desc.dtbd_cpu = (uint32_t)cpu;
		desc.dtbd_data = dtp->dt_snapbuf;
		if (dt_ctl(dtp, DTRACE_CTL_BUFSNAP, &desc, NULL) != 0) {
			/* no buffer on this CPU, or (ring, fill) not readable yet */
			if (dtp->dt_errno == ENOENT || dtp->dt_errno == EBUSY)
				continue;
			/* the core refused a header a traced process corrupted */
			if (dtp->dt_errno == EBADMSG)
				(void)dt_set_errno(dtp, EDT_BADBUF);
			free(drops);
			return -1;
		}
		dtp->dt_cpubufs[cpu].dtcb_cpu = cpu;
		dtp->dt_cpubufs[cpu].dtcb_latest = desc.dtbd_timestamp;
		drops[cpu] = desc.dtbd_drops;
		if (desc.dtbd_size > dtp->dt_snapsize || desc.dtbd_oldest > desc.dtbd_size) {
			free(drops);
			return dt_set_errno(dtp, EDT_DOFFSET);
		}
		if (desc.dtbd_size != 0 &&
		    dt_cpubuf_append(dtp, &dtp->dt_cpubufs[cpu], dtp->dt_snapbuf,
		                     (size_t)desc.dtbd_size, (size_t)desc.dtbd_oldest) != 0) {
			free(drops);
			return -1;
		}
		if (desc.dtbd_timestamp < limit)
			limit = desc.dtbd_timestamp;
	}
	/* once stopped, no CPU can produce anything older */
	if (dtp->dt_stopped)
		limit = UINT64_MAX;

	for (;;) {
		uint64_t best = UINT64_MAX, ts;
		int bcpu = -1;
		dt_cpubuf_t *cb;
		size_t offs;

		for (cpu = 0; cpu < dtp->dt_ncpu; cpu++) {
			ts = dt_cpubuf_next(&dtp->dt_cpubufs[cpu]);
			if (ts < best || (ts == best && ts != UINT64_MAX && bcpu == -1)) {
				best = ts;
				bcpu = cpu;
			}
		}
		if (bcpu == -1 || best > limit)
			break;
		cb = &dtp->dt_cpubufs[bcpu];
		offs = dt_consume_one(dtp, fp, bcpu, cb->dtcb_data, cb->dtcb_size, cb->dtcb_offs, pf,
		                      rf, arg);
		if (offs == (size_t)-1) {
			rval = -1;
			break;
		}
		cb->dtcb_offs = offs;
	}

	for (cpu = 0; cpu < dtp->dt_ncpu && rval == 0; cpu++) {
		dt_cpubuf_t *cb = &dtp->dt_cpubufs[cpu];

		if (cb->dtcb_offs >= cb->dtcb_size) {
			free(cb->dtcb_data);
			cb->dtcb_data = NULL;
			cb->dtcb_size = cb->dtcb_offs = 0;
		}
		if (drops[cpu] != 0 && dt_handle_cpudrop(dtp, cpu, DTRACEDROP_PRINCIPAL, drops[cpu]) != 0)
			rval = -1;
	}
	free(drops);
	return rval;
}

void
dt_consume_destroy(dtrace_hdl_t *dtp)
{
	int cpu;

	if (dtp->dt_cpubufs != NULL) {
		for (cpu = 0; cpu < dtp->dt_ncpu; cpu++)
			free(dtp->dt_cpubufs[cpu].dtcb_data);
		free(dtp->dt_cpubufs);
		dtp->dt_cpubufs = NULL;
	}
	free(dtp->dt_snapbuf);
	dtp->dt_snapbuf = NULL;
	dtp->dt_snapsize = 0;
}
