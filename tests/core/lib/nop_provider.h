/*
 * tests/core/lib/nop_provider.h: a provider whose callbacks do nothing, for
 * tests and benchmarks that only need probes to exist and fire.
 *
 *   nop_start(ncpus)                 test port reset to ncpus CPUs, CPU 0
 *                                    current, framework initialised
 *   nop_register(name, priv, &p)     register `name` with the no-op callbacks
 *   nop_stop()                       framework finished, test port reset with
 *                                    its leak check (aborts if the core leaked)
 *
 * Only the core's API and the test port: no assertion library, so bench/
 * may use it too.  Tests whose provider must count its callbacks use
 * core_harness.h instead.
 */
#ifndef DTRACE_TEST_NOP_PROVIDER_H
#define DTRACE_TEST_NOP_PROVIDER_H

#include "dtrace.h"
#include "testport.h"

static inline void
nop_provide(void *parg, const dtrace_probedesc_t *desc)
{
	(void)parg;
	(void)desc;
}

static inline int
nop_enable(void *parg, dtrace_id_t id, void *pp)
{
	(void)parg;
	(void)id;
	(void)pp;
	return 0;
}

/* disable and destroy */
static inline void
nop_probe(void *parg, dtrace_id_t id, void *pp)
{
	(void)parg;
	(void)id;
	(void)pp;
}

static const dtrace_pops_t nop_ops = {
	.dtps_provide = nop_provide,
	.dtps_enable = nop_enable,
	.dtps_disable = nop_probe,
	.dtps_destroy = nop_probe,
};
static const dtrace_pattr_t nop_attr; /* all stabilities internal */

/* Returns dtrace_init()'s result. */
static inline int
nop_start(uint32_t ncpus)
{
	testport_reset(false);
	testport_set_ncpus(ncpus);
	testport_set_cpu(0);
	return dtrace_init();
}

static inline int
nop_register(const char *name, uint32_t priv, dtrace_provider_id_t *idp)
{
	return dtrace_register(name, &nop_attr, priv, &nop_ops, NULL, idp);
}

/* Returns dtrace_fini()'s result; providers must be unregistered first. */
static inline int
nop_stop(void)
{
	int rv = dtrace_fini();

	testport_reset(true);
	return rv;
}

#endif /* DTRACE_TEST_NOP_PROVIDER_H */
