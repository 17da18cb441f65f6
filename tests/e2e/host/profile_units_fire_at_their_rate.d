/*
 * profile-N with every sub-second unit DTrace accepts, each naming a 5 ms
 * interval (200 Hz), fires on every CPU at that rate: until tick-1s each
 * CPU counts the firings of each probe and notes the first and last
 * timestamps; the mean interval must lie within 1 to 50 ms (wide, since
 * a busy machine delays signals and drops overruns; a misread unit is off
 * by a factor of 1000 or more).  Counters are per CPU key, so nothing
 * races; the check walks CPU ids one tick-1ms at a time.
 * $1: processors available, $2: processors configured.
 */
#pragma D option quiet

int halt, k, nseen;
int seen[int];
int c0[int], ok0;
uint64_t f0[int], l0[int];
int c1[int], ok1;
uint64_t f1[int], l1[int];
int c2[int], ok2;
uint64_t f2[int], l2[int];
int c3[int], ok3;
uint64_t f3[int], l3[int];
int c4[int], ok4;
uint64_t f4[int], l4[int];
int c5[int], ok5;
uint64_t f5[int], l5[int];
int c6[int], ok6;
uint64_t f6[int], l6[int];
int c7[int], ok7;
uint64_t f7[int], l7[int];

profile-5ms
/!halt/
{
	f0[cpu] = c0[cpu] == 0 ? timestamp : f0[cpu];
	l0[cpu] = timestamp;
	c0[cpu]++;
	seen[cpu] = 1;
}

profile-5msec
/!halt/
{
	f1[cpu] = c1[cpu] == 0 ? timestamp : f1[cpu];
	l1[cpu] = timestamp;
	c1[cpu]++;
	seen[cpu] = 1;
}

profile-5000us
/!halt/
{
	f2[cpu] = c2[cpu] == 0 ? timestamp : f2[cpu];
	l2[cpu] = timestamp;
	c2[cpu]++;
	seen[cpu] = 1;
}

profile-5000usec
/!halt/
{
	f3[cpu] = c3[cpu] == 0 ? timestamp : f3[cpu];
	l3[cpu] = timestamp;
	c3[cpu]++;
	seen[cpu] = 1;
}

profile-5000000ns
/!halt/
{
	f4[cpu] = c4[cpu] == 0 ? timestamp : f4[cpu];
	l4[cpu] = timestamp;
	c4[cpu]++;
	seen[cpu] = 1;
}

profile-5000000nsec
/!halt/
{
	f5[cpu] = c5[cpu] == 0 ? timestamp : f5[cpu];
	l5[cpu] = timestamp;
	c5[cpu]++;
	seen[cpu] = 1;
}

profile-200hz
/!halt/
{
	f6[cpu] = c6[cpu] == 0 ? timestamp : f6[cpu];
	l6[cpu] = timestamp;
	c6[cpu]++;
	seen[cpu] = 1;
}

profile-200
/!halt/
{
	f7[cpu] = c7[cpu] == 0 ? timestamp : f7[cpu];
	l7[cpu] = timestamp;
	c7[cpu]++;
	seen[cpu] = 1;
}

tick-1s
/!halt/
{
	halt = 1;
}

tick-1ms
/halt && k < $2/
{
	nseen += seen[k];
	ok0 += !seen[k] ||
	    (c0[k] >= 3 && l0[k] - f0[k] >= 1000000 * (c0[k] - 1) && l0[k] - f0[k] <= 50000000 * (c0[k] - 1));
	ok1 += !seen[k] ||
	    (c1[k] >= 3 && l1[k] - f1[k] >= 1000000 * (c1[k] - 1) && l1[k] - f1[k] <= 50000000 * (c1[k] - 1));
	ok2 += !seen[k] ||
	    (c2[k] >= 3 && l2[k] - f2[k] >= 1000000 * (c2[k] - 1) && l2[k] - f2[k] <= 50000000 * (c2[k] - 1));
	ok3 += !seen[k] ||
	    (c3[k] >= 3 && l3[k] - f3[k] >= 1000000 * (c3[k] - 1) && l3[k] - f3[k] <= 50000000 * (c3[k] - 1));
	ok4 += !seen[k] ||
	    (c4[k] >= 3 && l4[k] - f4[k] >= 1000000 * (c4[k] - 1) && l4[k] - f4[k] <= 50000000 * (c4[k] - 1));
	ok5 += !seen[k] ||
	    (c5[k] >= 3 && l5[k] - f5[k] >= 1000000 * (c5[k] - 1) && l5[k] - f5[k] <= 50000000 * (c5[k] - 1));
	ok6 += !seen[k] ||
	    (c6[k] >= 3 && l6[k] - f6[k] >= 1000000 * (c6[k] - 1) && l6[k] - f6[k] <= 50000000 * (c6[k] - 1));
	ok7 += !seen[k] ||
	    (c7[k] >= 3 && l7[k] - f7[k] >= 1000000 * (c7[k] - 1) && l7[k] - f7[k] <= 50000000 * (c7[k] - 1));
	k++;
}

tick-1ms
/halt && k == $2/
{
	printf("profile fired on every CPU: %s\n", nseen == $1 ? "yes" : "no");
	printf("profile-5ms every 5 ms: %s\n", ok0 == $2 ? "yes" : "no");
	printf("profile-5msec every 5 ms: %s\n", ok1 == $2 ? "yes" : "no");
	printf("profile-5000us every 5 ms: %s\n", ok2 == $2 ? "yes" : "no");
	printf("profile-5000usec every 5 ms: %s\n", ok3 == $2 ? "yes" : "no");
	printf("profile-5000000ns every 5 ms: %s\n", ok4 == $2 ? "yes" : "no");
	printf("profile-5000000nsec every 5 ms: %s\n", ok5 == $2 ? "yes" : "no");
	printf("profile-200hz every 5 ms: %s\n", ok6 == $2 ? "yes" : "no");
	printf("profile-200 every 5 ms: %s\n", ok7 == $2 ? "yes" : "no");
	exit(0);
}
