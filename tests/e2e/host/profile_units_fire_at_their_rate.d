/*
 * profile-N with every sub-second unit DTrace accepts, each naming 200 firings
 * a second: over the 200 ms before tick-200ms every CPU counts about 40
 * firings of each (accepted: 20 to 50, so a busy machine passes and a
 * misread unit does not).  Counters are per CPU key, so nothing races; the
 * check walks CPU ids one tick-1ms at a time.  $1: processors available,
 * $2: processors configured.
 */
#pragma D option quiet

int halt, k, nseen;
int seen[int];
int c0[int];
int ok0;
int c1[int];
int ok1;
int c2[int];
int ok2;
int c3[int];
int ok3;
int c4[int];
int ok4;
int c5[int];
int ok5;
int c6[int];
int ok6;
int c7[int];
int ok7;

profile-5ms
/!halt/
{
	c0[cpu]++;
	seen[cpu] = 1;
}

profile-5msec
/!halt/
{
	c1[cpu]++;
	seen[cpu] = 1;
}

profile-5000us
/!halt/
{
	c2[cpu]++;
	seen[cpu] = 1;
}

profile-5000usec
/!halt/
{
	c3[cpu]++;
	seen[cpu] = 1;
}

profile-5000000ns
/!halt/
{
	c4[cpu]++;
	seen[cpu] = 1;
}

profile-5000000nsec
/!halt/
{
	c5[cpu]++;
	seen[cpu] = 1;
}

profile-200hz
/!halt/
{
	c6[cpu]++;
	seen[cpu] = 1;
}

profile-200
/!halt/
{
	c7[cpu]++;
	seen[cpu] = 1;
}

tick-200ms
/!halt/
{
	halt = 1;
}

tick-1ms
/halt && k < $2/
{
	nseen += seen[k];
	ok0 += !seen[k] || (c0[k] >= 20 && c0[k] <= 50);
	ok1 += !seen[k] || (c1[k] >= 20 && c1[k] <= 50);
	ok2 += !seen[k] || (c2[k] >= 20 && c2[k] <= 50);
	ok3 += !seen[k] || (c3[k] >= 20 && c3[k] <= 50);
	ok4 += !seen[k] || (c4[k] >= 20 && c4[k] <= 50);
	ok5 += !seen[k] || (c5[k] >= 20 && c5[k] <= 50);
	ok6 += !seen[k] || (c6[k] >= 20 && c6[k] <= 50);
	ok7 += !seen[k] || (c7[k] >= 20 && c7[k] <= 50);
	k++;
}

tick-1ms
/halt && k == $2/
{
	printf("CPUs counted: %s\n", nseen == $1 ? "all" : "not all");
	printf("profile-5ms: %s\n", ok0 == $2 ? "yes" : "no");
	printf("profile-5msec: %s\n", ok1 == $2 ? "yes" : "no");
	printf("profile-5000us: %s\n", ok2 == $2 ? "yes" : "no");
	printf("profile-5000usec: %s\n", ok3 == $2 ? "yes" : "no");
	printf("profile-5000000ns: %s\n", ok4 == $2 ? "yes" : "no");
	printf("profile-5000000nsec: %s\n", ok5 == $2 ? "yes" : "no");
	printf("profile-200hz: %s\n", ok6 == $2 ? "yes" : "no");
	printf("profile-200: %s\n", ok7 == $2 ? "yes" : "no");
	exit(0);
}
