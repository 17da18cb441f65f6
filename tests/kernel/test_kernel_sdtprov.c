/*
 * kernel/sdtprov.c, what the sdt providers share, on the test port: DTrace's
 * spelling of probe names (and truncation to the buffer), providers
 * registered by name on the first hold and unregistered with the last,
 * a provider kept while a consumer is open, and release_all.
 */
#include "core_harness.h"
#include "sdtprov.h"

static const dtrace_pops_t ops = {
	.dtps_provide = ksdt_provide_none,
	.dtps_enable = harness_enable,
	.dtps_disable = harness_disable,
	.dtps_destroy = ksdt_destroy_none,
};

static void
test_names(void)
{
	char b[16];

	ksdt_probename(b, sizeof(b), "sig__send");
	CHECK(strcmp(b, "sig-send") == 0);
	ksdt_probename(b, sizeof(b), "a___b_c");
	CHECK(strcmp(b, "a-_b_c") == 0);
	ksdt_probename(b, sizeof(b), "exec");
	CHECK(strcmp(b, "exec") == 0);
	ksdt_probename(b, 5, "create__done");
	CHECK(strcmp(b, "crea") == 0);
	ksdt_probename(b, sizeof(b), "");
	CHECK(strcmp(b, "") == 0);
}

static void
test_providers(void)
{
	dtrace_provider_id_t proc, io;
	dtrace_state_t *st;
	char longname[DTRACE_PROVNAMELEN + 1];

	CHECK_EQ(nop_start(1), 0);
	proc = ksdt_provider_hold("proc", &ops, NULL);
	CHECK(proc != 0);
	CHECK_EQ(ksdt_provider_hold("proc", &ops, NULL), proc); /* a second file */
	io = ksdt_provider_hold("io", &ops, NULL);
	CHECK(io != 0 && io != proc);
	CHECK_EQ(ksdt_provider_find("proc"), proc);
	CHECK_EQ(ksdt_provider_find("pro"), 0);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_EQ(ksdt_provider_hold(longname, &ops, NULL), 0);

	CHECK(dtrace_probe_create(proc, "kernel", "", "exec", 0, NULL) != 0);
	CHECK_EQ(ksdt_provider_release("proc"), 0); /* one file left defines it */
	CHECK_EQ(ksdt_provider_find("proc"), proc);

	/* the last hold cannot go while a consumer is open */
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	CHECK(ksdt_provider_release("proc") != 0);
	CHECK_EQ(ksdt_provider_find("proc"), proc);
	CHECK(ksdt_provider_release_all() != 0);
	dtrace_state_close(st);
	CHECK_EQ(ksdt_provider_release("proc"), 0);
	CHECK_EQ(ksdt_provider_find("proc"), 0);
	CHECK_EQ(ksdt_provider_release("proc"), 0); /* not held: nothing */

	CHECK_EQ(ksdt_provider_release_all(), 0);
	CHECK_EQ(ksdt_provider_find("io"), 0);
	CHECK_EQ(nop_stop(), 0);
}

int
main(void)
{
	test_names();
	test_providers();
	return TEST_DONE();
}
