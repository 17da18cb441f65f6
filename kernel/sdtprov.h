/*
 * kernel/sdtprov.h: what the kernels' statically defined probe (sdt)
 * providers share: DTrace's spelling of a probe name, the providers' stability,
 * and a table of providers by name, each registered when the first loaded
 * file (kernel or module) defining it is seen and unregistered when the
 * last goes.  How sites are found, enabled and fired is the OS's
 * (the sdt file of port/<os>).  Freestanding, like the core: it includes only
 * core/dtrace.h.  Not probe context; the caller serializes the table.
 */
#ifndef DTRACE_KERNEL_SDTPROV_H
#define DTRACE_KERNEL_SDTPROV_H

#include "dtrace.h"

#define KSDT_MAXPROV 128 /* providers at once */

/* The stability DTrace gives sdt providers. */
extern const dtrace_pattr_t ksdt_attr;

/* DTrace's spelling of an SDT probe name into dst[size]: "__" becomes "-". */
void ksdt_probename(char *dst, size_t size, const char *src);

/* The provider `name`: registered with pops and parg the first time, and
 * held once more each time; 0 when the table is full or registering fails. */
dtrace_provider_id_t ksdt_provider_hold(const char *name, const dtrace_pops_t *pops, void *parg);
/* The provider `name` if held, else 0. */
dtrace_provider_id_t ksdt_provider_find(const char *name);
/* Drop one hold of `name`; the last unregisters it (its probes are
 * destroyed).  When that refuses (a consumer still open) the hold stays and
 * the error is returned. */
int ksdt_provider_release(const char *name);
/* Unregister every provider, whatever its holds; the first refusal stops
 * it and is returned (the providers not yet unregistered stay). */
int ksdt_provider_release_all(void);
/* Probes made when their file is seen: a provide that does nothing; and a
 * destroy for probes that own no memory. */
void ksdt_provide_none(void *parg, const dtrace_probedesc_t *desc);
void ksdt_destroy_none(void *parg, dtrace_id_t id, void *parg_probe);

#endif /* DTRACE_KERNEL_SDTPROV_H */
