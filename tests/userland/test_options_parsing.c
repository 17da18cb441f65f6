/*
 * test_options_parsing: options parse as DTrace parses them (sizes with
 * k/m/g/t, times with units or hz, booleans, policies), bad names and
 * values are refused with DTrace's errors, and tracing options freeze while
 * tracing is active while the dynamic ones do not.
 */
#include "dt_testutil.h"

static dtrace_optval_t
get(dtrace_hdl_t *dtp, const char *name)
{
	dtrace_optval_t v = -12345;

	DT_CHECK(dtrace_getopt(dtp, name, &v) == 0);
	return v;
}

int
main(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();

	/* sizes */
	DT_CHECK(get(dtp, "bufsize") == DTRACEOPT_UNSET);
	DT_CHECK(dtrace_setopt(dtp, "bufsize", "4m") == 0 && get(dtp, "bufsize") == 4 << 20);
	DT_CHECK(dtrace_setopt(dtp, "bufsize", "512k") == 0 && get(dtp, "bufsize") == 512 << 10);
	DT_CHECK(dtrace_setopt(dtp, "aggsize", "2G") == 0 && get(dtp, "aggsize") == 2LL << 30);
	DT_CHECK(dtrace_setopt(dtp, "dynvarsize", "1t") == 0 && get(dtp, "dynvarsize") == 1LL << 40);
	DT_CHECK(dtrace_setopt(dtp, "specsize", "0x1000") == 0 && get(dtp, "specsize") == 4096);
	DT_CHECK(dtrace_setopt(dtp, "strsize", "32") == 0 && get(dtp, "strsize") == 32);
	DT_CHECK(dtrace_setopt(dtp, "bufsize", "4q") == -1 && dtrace_errno(dtp) == EDT_BADOPTVAL);
	DT_CHECK(dtrace_setopt(dtp, "bufsize", "m") == -1);
	DT_CHECK(dtrace_setopt(dtp, "bufsize", "12mm") == -1);
	DT_CHECK(get(dtp, "bufsize") == 512 << 10); /* unchanged by failures */
	DT_CHECK(dtrace_setopt(dtp, "strsize", "8g") == -1);

	/* rates and times */
	DT_CHECK(dtrace_setopt(dtp, "switchrate", "10hz") == 0 &&
	         get(dtp, "switchrate") == 100000000);
	DT_CHECK(dtrace_setopt(dtp, "switchrate", "100ms") == 0 &&
	         get(dtp, "switchrate") == 100000000);
	DT_CHECK(dtrace_setopt(dtp, "aggrate", "2s") == 0 && get(dtp, "aggrate") == 2000000000);
	DT_CHECK(dtrace_setopt(dtp, "aggrate", "250us") == 0 && get(dtp, "aggrate") == 250000);
	DT_CHECK(dtrace_setopt(dtp, "statusrate", "1min") == 0 &&
	         get(dtp, "statusrate") == 60000000000LL);
	DT_CHECK(dtrace_setopt(dtp, "cleanrate", "1000") == 0 && get(dtp, "cleanrate") == 1000);
	DT_CHECK(dtrace_setopt(dtp, "cleanrate", "50HZ") == 0 && get(dtp, "cleanrate") == 20000000);
	DT_CHECK(dtrace_setopt(dtp, "switchrate", "5parsecs") == -1 &&
	         dtrace_errno(dtp) == EDT_BADOPTVAL);

	/* flags and numbers */
	DT_CHECK(get(dtp, "quiet") == DTRACEOPT_UNSET);
	DT_CHECK(dtrace_setopt(dtp, "quiet", NULL) == 0 && get(dtp, "quiet") != DTRACEOPT_UNSET);
	DT_CHECK(dtrace_setopt(dtp, "quiet", "no") == 0 && get(dtp, "quiet") == DTRACEOPT_UNSET);
	DT_CHECK(dtrace_setopt(dtp, "quiet", "on") == 0 && get(dtp, "quiet") == 1);
	DT_CHECK(dtrace_setopt(dtp, "quiet", "") == 0 && get(dtp, "quiet") == DTRACEOPT_UNSET);
	DT_CHECK(dtrace_setopt(dtp, "nspec", "4") == 0 && get(dtp, "nspec") == 4);
	DT_CHECK(dtrace_setopt(dtp, "nspec", "four") == -1 && dtrace_errno(dtp) == EDT_BADOPTVAL);
	DT_CHECK(dtrace_setopt(dtp, "stackframes", "50") == 0 && get(dtp, "stackframes") == 50);

	/* policies */
	DT_CHECK(dtrace_setopt(dtp, "bufpolicy", "ring") == 0 &&
	         get(dtp, "bufpolicy") == DTRACEOPT_BUFPOLICY_RING);
	DT_CHECK(dtrace_setopt(dtp, "bufpolicy", "fill") == 0 &&
	         get(dtp, "bufpolicy") == DTRACEOPT_BUFPOLICY_FILL);
	DT_CHECK(dtrace_setopt(dtp, "bufpolicy", "loop") == -1);
	DT_CHECK(dtrace_setopt(dtp, "bufresize", "manual") == 0 &&
	         get(dtp, "bufresize") == DTRACEOPT_BUFRESIZE_MANUAL);

	/* compile-time options set flags; they cannot be read back */
	DT_CHECK(dtrace_setopt(dtp, "zdefs", NULL) == 0 && (dtp->dt_cflags & DTRACE_C_ZDEFS));
	DT_CHECK(dtrace_setopt(dtp, "errtags", NULL) == 0 && (dtp->dt_cflags & DTRACE_C_ETAGS));
	DT_CHECK(dtrace_setopt(dtp, "defaultargs", NULL) == 0 &&
	         (dtp->dt_cflags & DTRACE_C_DEFARG));
	DT_CHECK(dtrace_setopt(dtp, "zdefs", "yes") == -1 && dtrace_errno(dtp) == EDT_BADOPTVAL);
	DT_CHECK(dtrace_setopt(dtp, "define", "FOO=1") == 0 && dtp->dt_cpp_argc == 1 &&
	         strcmp(dtp->dt_cpp_argv[0], "-DFOO=1") == 0);
	DT_CHECK(dtrace_setopt(dtp, "incdir", "/tmp") == 0 &&
	         strcmp(dtp->dt_cpp_argv[1], "-I/tmp") == 0);
	{
		dtrace_optval_t v;

		DT_CHECK(dtrace_getopt(dtp, "zdefs", &v) == -1 && dtrace_errno(dtp) == EDT_BADOPTNAME);
	}

	/* unknown names */
	DT_CHECK(dtrace_setopt(dtp, "nosuchoption", "1") == -1 &&
	         dtrace_errno(dtp) == EDT_BADOPTNAME);
	DT_EXPECT_STR(dtrace_errmsg(dtp, EDT_BADOPTNAME), "Invalid option name");
	DT_EXPECT_STR(dtrace_errmsg(dtp, EDT_BADOPTVAL), "Invalid value for specified option");

	/* while tracing: tracing options freeze, dynamic ones change */
	dtp->dt_active = 1;
	DT_CHECK(dtrace_setopt(dtp, "bufsize", "1m") == -1 && dtrace_errno(dtp) == EDT_ACTIVE);
	DT_EXPECT_STR(dtrace_errmsg(dtp, EDT_ACTIVE), "Operation illegal when tracing is active");
	DT_CHECK(dtrace_setopt(dtp, "quiet", NULL) == 0);
	DT_CHECK(dtrace_setopt(dtp, "aggsortkey", NULL) == 0);
	DT_CHECK(dtrace_setopt(dtp, "switchrate", "1hz") == 0);
	DT_CHECK(dtrace_setopt(dtp, "flowindent", NULL) == 0);
	dtp->dt_active = 0;

	/* defaults applied at go for what the consumer paces itself by */
	dt_options_defaults(dtp);
	DT_CHECK(get(dtp, "statusrate") == 60000000000LL); /* set above, kept */
	{
		dtrace_hdl_t *d2 = dt_test_handle();

		dt_options_defaults(d2);
		DT_CHECK(get(d2, "switchrate") == DTRACE_NANOSEC);
		DT_CHECK(get(d2, "aggrate") == DTRACE_NANOSEC);
		DT_CHECK(get(d2, "bufpolicy") == DTRACEOPT_BUFPOLICY_SWITCH);
		dt_handle_destroy(d2);
	}

	dt_handle_destroy(dtp);
	return dt_test_result("test_options_parsing");
}
