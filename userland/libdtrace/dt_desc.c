/*
 * dt_desc.c: what the core says about EPIDs, aggregation ids and format ids,
 * cached by id.  Records carry only ids; the first record with a new id
 * costs a control operation (EPROBE + PROBES, AGGDESC, FORMAT), later ones
 * a table index.  Tests fill the caches directly with dt_epid_add() and
 * dt_aggid_add() and never reach a core.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"
#include "dt_printf.h"

static int
dt_grow(dtrace_hdl_t *dtp, void ***tabp, uint32_t *maxp, uint32_t id)
{
	uint32_t nmax = *maxp != 0 ? *maxp : 16;
	void **ntab;

	if (id < *maxp)
		return 0;
	while (nmax <= id)
		nmax *= 2;
	if ((ntab = realloc(*tabp, sizeof(void *) * nmax)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	memset(ntab + *maxp, 0, sizeof(void *) * (nmax - *maxp));
	*tabp = ntab;
	*maxp = nmax;
	return 0;
}

static int
dt_grow_epid(dtrace_hdl_t *dtp, dtrace_epid_t epid)
{
	uint32_t max = dtp->dt_maxprobe;

	if (dt_grow(dtp, (void ***)&dtp->dt_edesc, &max, epid) != 0)
		return -1;
	max = dtp->dt_maxprobe;
	if (dt_grow(dtp, (void ***)&dtp->dt_pdesc, &max, epid) != 0)
		return -1;
	dtp->dt_maxprobe = max;
	return 0;
}

int
dt_epid_add(dtrace_hdl_t *dtp, dtrace_epid_t epid, const dtrace_eprobedesc_t *epd,
	    const dtrace_probedesc_t *pd)
{
	size_t esize = DTRACE_SIZEOF_EPROBEDESC(epd);
	dtrace_eprobedesc_t *ecopy;
	dtrace_probedesc_t *pcopy;

	if (dt_grow_epid(dtp, epid) != 0)
		return -1;
	if ((ecopy = dt_alloc(dtp, esize)) == NULL)
		return -1;
	if ((pcopy = dt_alloc(dtp, sizeof(*pcopy))) == NULL) {
		free(ecopy);
		return -1;
	}
	memcpy(ecopy, epd, esize);
	memcpy(pcopy, pd, sizeof(*pcopy));
	free(dtp->dt_edesc[epid]);
	free(dtp->dt_pdesc[epid]);
	dtp->dt_edesc[epid] = ecopy;
	dtp->dt_pdesc[epid] = pcopy;
	return 0;
}

static int
dt_epid_fetch(dtrace_hdl_t *dtp, dtrace_epid_t epid)
{
	dtrace_eprobedesc_t *epd;
	dtrace_probedesc_t pd;
	int32_t nrecs = 1;
	int rval;

	for (;;) {
		size_t size = sizeof(*epd) + (size_t)(nrecs - 1) * sizeof(dtrace_recdesc_t);

		if ((epd = dt_calloc(dtp, size)) == NULL)
			return -1;
		epd->dtepd_epid = epid;
		epd->dtepd_nrecs = nrecs;
		if (dt_ctl(dtp, DTRACE_CTL_EPROBE, epd, NULL) != 0) {
			free(epd);
			return -1;
		}
		if (epd->dtepd_nrecs <= nrecs)
			break;
		nrecs = epd->dtepd_nrecs;
		free(epd);
	}

	memset(&pd, 0, sizeof(pd));
	pd.dtpd_id = epd->dtepd_probeid;
	if (dt_ctl(dtp, DTRACE_CTL_PROBES, &pd, NULL) != 0 || pd.dtpd_id != epd->dtepd_probeid) {
		free(epd);
		return dt_set_errno(dtp, EDT_BADID);
	}
	rval = dt_epid_add(dtp, epid, epd, &pd);
	free(epd);
	return rval;
}

int
dt_epid_lookup(dtrace_hdl_t *dtp, dtrace_epid_t epid, dtrace_eprobedesc_t **epdp,
	       dtrace_probedesc_t **pdp)
{
	if ((epid >= dtp->dt_maxprobe || dtp->dt_edesc[epid] == NULL) &&
	    dt_epid_fetch(dtp, epid) != 0)
		return -1;
	*epdp = dtp->dt_edesc[epid];
	*pdp = dtp->dt_pdesc[epid];
	return 0;
}

int
dt_aggid_add(dtrace_hdl_t *dtp, const dtrace_aggdesc_t *agd)
{
	size_t size = DTRACE_SIZEOF_AGGDESC(agd);
	dtrace_aggdesc_t *copy;
	const char *name = agd->dtagd_name;

	if (dt_grow(dtp, (void ***)&dtp->dt_aggdesc, &dtp->dt_maxagg, agd->dtagd_id) != 0)
		return -1;
	if ((copy = dt_alloc(dtp, size)) == NULL)
		return -1;
	memcpy(copy, agd, size);
	/* The name belongs to the compiled program; resolve it by the
	 * aggregation's first record, the compiler's id record. */
	if (name == NULL && agd->dtagd_nrecs > 0 && dtp->dt_aggname != NULL)
		name = dtp->dt_aggname(dtp, agd->dtagd_rec[0].dtrd_uarg);
	copy->dtagd_name = (char *)(name != NULL ? name : "");
	if (dtp->dt_aggdesc[agd->dtagd_id] != NULL)
		free(dtp->dt_aggdesc[agd->dtagd_id]);
	dtp->dt_aggdesc[agd->dtagd_id] = copy;
	return 0;
}

static int
dt_aggid_fetch(dtrace_hdl_t *dtp, dtrace_aggid_t aggid)
{
	dtrace_aggdesc_t *agd;
	int32_t nrecs = 1;
	int rval;

	for (;;) {
		size_t size = sizeof(*agd) + (size_t)(nrecs - 1) * sizeof(dtrace_recdesc_t);

		if ((agd = dt_calloc(dtp, size)) == NULL)
			return -1;
		agd->dtagd_id = aggid;
		agd->dtagd_nrecs = nrecs;
		if (dt_ctl(dtp, DTRACE_CTL_AGGDESC, agd, NULL) != 0) {
			free(agd);
			return -1;
		}
		if (agd->dtagd_nrecs <= nrecs)
			break;
		nrecs = agd->dtagd_nrecs;
		free(agd);
	}
	agd->dtagd_name = NULL;
	agd->dtagd_varid = DTRACE_AGGVARIDNONE;
	agd->dtagd_flags = 0;
	rval = dt_aggid_add(dtp, agd);
	free(agd);
	return rval;
}

int
dt_aggid_lookup(dtrace_hdl_t *dtp, dtrace_aggid_t aggid, dtrace_aggdesc_t **adp)
{
	if ((aggid >= dtp->dt_maxagg || dtp->dt_aggdesc[aggid] == NULL) &&
	    dt_aggid_fetch(dtp, aggid) != 0)
		return -1;
	*adp = dtp->dt_aggdesc[aggid];
	return 0;
}

int
dt_format_add(dtrace_hdl_t *dtp, int format, const char *str, int printa)
{
	dt_pfargv_t *pfv;

	if (format <= 0)
		return dt_set_errno(dtp, EINVAL);
	if (dt_grow(dtp, (void ***)&dtp->dt_formats, &dtp->dt_maxformat, (uint32_t)format) != 0)
		return -1;
	if ((pfv = dt_printf_create(dtp, str, printa ? DT_PRINTF_AGGREGATION : 0)) == NULL)
		return -1;
	if (dtp->dt_formats[format] != NULL)
		dt_printf_destroy(dtp->dt_formats[format]);
	dtp->dt_formats[format] = pfv;
	return 0;
}

dt_pfargv_t *
dt_format_lookup(dtrace_hdl_t *dtp, int format, int printa)
{
	dtrace_fmtdesc_t fmt;
	char *str;
	int rval;

	if (format <= 0)
		return NULL;
	if ((uint32_t)format < dtp->dt_maxformat && dtp->dt_formats[format] != NULL)
		return dtp->dt_formats[format];

	memset(&fmt, 0, sizeof(fmt));
	fmt.dtfd_format = (uint16_t)format;
	fmt.dtfd_length = 0;
	if (dt_ctl(dtp, DTRACE_CTL_FORMAT, &fmt, NULL) != 0 || fmt.dtfd_length <= 0)
		return NULL;
	if ((str = dt_calloc(dtp, (size_t)fmt.dtfd_length + 1)) == NULL)
		return NULL;
	fmt.dtfd_string = str;
	if (dt_ctl(dtp, DTRACE_CTL_FORMAT, &fmt, NULL) != 0) {
		free(str);
		return NULL;
	}
	rval = dt_format_add(dtp, format, str, printa);
	free(str);
	return rval == 0 ? dtp->dt_formats[format] : NULL;
}

void
dt_desc_destroy(dtrace_hdl_t *dtp)
{
	uint32_t i;

	for (i = 0; i < dtp->dt_maxprobe; i++) {
		free(dtp->dt_edesc[i]);
		free(dtp->dt_pdesc[i]);
	}
	free(dtp->dt_edesc);
	free(dtp->dt_pdesc);
	for (i = 0; i < dtp->dt_maxagg; i++)
		free(dtp->dt_aggdesc[i]);
	free(dtp->dt_aggdesc);
	for (i = 0; i < dtp->dt_maxformat; i++) {
		if (dtp->dt_formats[i] != NULL)
			dt_printf_destroy(dtp->dt_formats[i]);
	}
	free(dtp->dt_formats);
	dtp->dt_edesc = NULL;
	dtp->dt_pdesc = NULL;
	dtp->dt_aggdesc = NULL;
	dtp->dt_formats = NULL;
	dtp->dt_maxprobe = dtp->dt_maxagg = dtp->dt_maxformat = 0;
}
