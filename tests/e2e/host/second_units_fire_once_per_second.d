/*
 * The one-second spellings: profile-1s, -1sec and -1 (1 Hz) fire once per
 * CPU, tick-1s, -1sec and -1 once in all, in the 1.5 s before tick-1500ms.
 * Per-CPU counts are per key (no race), checked one tick-1ms at a time.
 * $1: processors available, $2: processors configured.
 */
#pragma D option quiet

int halt, k, nseen, ps, psec, phz, ts, tsec, thz;
int seen[int], cs[int], csec[int], chz[int];

profile-1s /!halt/ { cs[cpu]++; seen[cpu] = 1; }
profile-1sec /!halt/ { csec[cpu]++; seen[cpu] = 1; }
profile-1 /!halt/ { chz[cpu]++; seen[cpu] = 1; }
tick-1s /!halt/ { ts++; }
tick-1sec /!halt/ { tsec++; }
tick-1 /!halt/ { thz++; }

tick-1500ms
/!halt/
{
	halt = 1;
}

tick-1ms
/halt && k < $2/
{
	nseen += seen[k];
	ps += !seen[k] || cs[k] == 1;
	psec += !seen[k] || csec[k] == 1;
	phz += !seen[k] || chz[k] == 1;
	k++;
}

tick-1ms
/halt && k == $2/
{
	printf("profile fired on every CPU: %s\n", nseen == $1 ? "yes" : "no");
	printf("profile-1s once per CPU: %s\n", ps == $2 ? "yes" : "no");
	printf("profile-1sec once per CPU: %s\n", psec == $2 ? "yes" : "no");
	printf("profile-1 once per CPU: %s\n", phz == $2 ? "yes" : "no");
	printf("tick-1s once: %s\n", ts == 1 ? "yes" : "no");
	printf("tick-1sec once: %s\n", tsec == 1 ? "yes" : "no");
	printf("tick-1 once: %s\n", thz == 1 ? "yes" : "no");
	exit(0);
}
