/*
 * kernel/sysprov.c, the syscall provider's OS-neutral half, on the test
 * port with a fake system-call table: entry and return probes for every
 * named call and none for an unnamed slot, the OS half told which probe id
 * to fire for which call and direction, the global switch turned on with
 * the first enabled probe and off with the last, and the arguments the OS
 * half fires with reaching the consumer.
 */
#include "core_harness.h"
#include "sysprov.h"
#include "testport.h"

static const char *const fake_names[4] = {"read", NULL, "write", ""};
static dtrace_id_t fake_ids[4][2];
static int fake_on, fake_switches;

static const char *
fake_name(int call)
{
	return fake_names[call];
}

static void
fake_set(int call, bool ret, dtrace_id_t id)
{
	fake_ids[call][ret] = id;
}

static void
fake_active(bool on)
{
	fake_on = on;
	fake_switches++;
}

static const ksys_ops_t fake_ops = {"fakeos", 4, fake_name, fake_set, fake_active};

static dtrace_id_t
match(dtrace_state_t *st, const char *mod, const char *func, const char *name)
{
	dtrace_probedesc_t pd;

	memset(&pd, 0, sizeof(pd));
	strcpy(pd.dtpd_provider, "syscall");
	strcpy(pd.dtpd_mod, mod);
	strcpy(pd.dtpd_func, func);
	strcpy(pd.dtpd_name, name);
	return dtrace_ctl(st, DTRACE_CTL_PROBEMATCH, &pd, NULL) == 0 ? pd.dtpd_id : 0;
}

int
main(void)
{
	dtrace_state_t *st;
	dtrace_id_t rd_entry, wr_return;
	dofb_t b;
	int32_t cpu;

	CHECK_EQ(nop_start(1), 0);
	CHECK_EQ(ksys_register(&fake_ops), 0);
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	rd_entry = match(st, "fakeos", "read", "entry");
	wr_return = match(st, "fakeos", "write", "return");
	CHECK(rd_entry != 0);
	CHECK(wr_return != 0);
	CHECK(match(st, "fakeos", "read", "return") != 0);
	CHECK_EQ(match(st, "", "", "entry") != 0, true);
	CHECK_EQ(match(st, "fakeos", "", "bogus"), 0);

	/* syscall::read:entry { trace(arg0); trace(arg1); }, and write:return */
	dofb_init(&b);
	{
		dof_actdesc_t a[2] = {harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8)),
				      harness_trace(dofb_difo_var(&b, DIF_VAR_ARG1, 8))};
		uint32_t acts = dofb_actions(&b, a, 2);

		dofb_ecbdesc(&b, dofb_probedesc(&b, "syscall", "", "read", "entry"),
			     DOF_SECIDX_NONE, acts, 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "syscall", "", "write", "return"),
			     DOF_SECIDX_NONE, acts, 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}};
		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	CHECK_EQ(fake_ids[0][0], rd_entry);
	CHECK_EQ(fake_ids[0][1], 0);
	CHECK_EQ(fake_ids[2][1], wr_return);
	CHECK_EQ(fake_on, 1);
	CHECK_EQ(fake_switches, 1);

	/* as an OS half fires: entry with arguments, return with the value twice */
	dtrace_probe(fake_ids[0][0], 3, 0x1000, 64, 0, 0);
	dtrace_probe(fake_ids[2][1], (uint64_t)-1, (uint64_t)-1, 0, 0, 0);
	CHECK_EQ(harness_snap(st, 0, false, NULL), 2 * 32); /* header, arg0, arg1 */
	CHECK_EQ(rd64(harness_data + 16), 3);
	CHECK_EQ(rd64(harness_data + 24), 0x1000);
	CHECK_EQ(rd64(harness_data + 32 + 16), (uint64_t)-1);
	CHECK_EQ(rd64(harness_data + 32 + 24), (uint64_t)-1);

	dtrace_state_close(st);
	CHECK_EQ(fake_ids[0][0], 0);
	CHECK_EQ(fake_ids[2][1], 0);
	CHECK_EQ(fake_on, 0);
	CHECK_EQ(fake_switches, 2);
	dofb_fini(&b);
	CHECK_EQ(ksys_unregister(), 0);
	CHECK_EQ(nop_stop(), 0);
	return TEST_DONE();
}
