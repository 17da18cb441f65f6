/*
 * tick-N with every sub-second unit DTrace accepts, each naming a 5 ms
 * interval (200 Hz): until tick-1s each fires with a mean interval of
 * 1 to 50 ms between its first and last firing (wide, since a busy
 * machine delays signals; a misread unit is off by 1000 or more), and
 * every tick probe fires on one and the same CPU.
 */
#pragma D option quiet

int halt, first, tickcpu, othercpu;
int c0;
uint64_t f0, l0;
int c1;
uint64_t f1, l1;
int c2;
uint64_t f2, l2;
int c3;
uint64_t f3, l3;
int c4;
uint64_t f4, l4;
int c5;
uint64_t f5, l5;
int c6;
uint64_t f6, l6;
int c7;
uint64_t f7, l7;

tick-5ms
/!first/
{
	first = 1;
	tickcpu = cpu;
}

tick-5ms
/!halt/
{
	f0 = c0 == 0 ? timestamp : f0;
	l0 = timestamp;
	c0++;
	othercpu += cpu != tickcpu;
}

tick-5msec
/!halt/
{
	f1 = c1 == 0 ? timestamp : f1;
	l1 = timestamp;
	c1++;
	othercpu += cpu != tickcpu;
}

tick-5000us
/!halt/
{
	f2 = c2 == 0 ? timestamp : f2;
	l2 = timestamp;
	c2++;
	othercpu += cpu != tickcpu;
}

tick-5000usec
/!halt/
{
	f3 = c3 == 0 ? timestamp : f3;
	l3 = timestamp;
	c3++;
	othercpu += cpu != tickcpu;
}

tick-5000000ns
/!halt/
{
	f4 = c4 == 0 ? timestamp : f4;
	l4 = timestamp;
	c4++;
	othercpu += cpu != tickcpu;
}

tick-5000000nsec
/!halt/
{
	f5 = c5 == 0 ? timestamp : f5;
	l5 = timestamp;
	c5++;
	othercpu += cpu != tickcpu;
}

tick-200hz
/!halt/
{
	f6 = c6 == 0 ? timestamp : f6;
	l6 = timestamp;
	c6++;
	othercpu += cpu != tickcpu;
}

tick-200
/!halt/
{
	f7 = c7 == 0 ? timestamp : f7;
	l7 = timestamp;
	c7++;
	othercpu += cpu != tickcpu;
}

tick-1s
{
	halt = 1;
	othercpu += cpu != tickcpu;
	printf("all tick probes on one CPU: %s\n", othercpu == 0 ? "yes" : "no");
	printf("tick-5ms every 5 ms: %s\n",
	    (c0 >= 3 && l0 - f0 >= 1000000 * (c0 - 1) && l0 - f0 <= 50000000 * (c0 - 1)) ? "yes" : "no");
	printf("tick-5msec every 5 ms: %s\n",
	    (c1 >= 3 && l1 - f1 >= 1000000 * (c1 - 1) && l1 - f1 <= 50000000 * (c1 - 1)) ? "yes" : "no");
	printf("tick-5000us every 5 ms: %s\n",
	    (c2 >= 3 && l2 - f2 >= 1000000 * (c2 - 1) && l2 - f2 <= 50000000 * (c2 - 1)) ? "yes" : "no");
	printf("tick-5000usec every 5 ms: %s\n",
	    (c3 >= 3 && l3 - f3 >= 1000000 * (c3 - 1) && l3 - f3 <= 50000000 * (c3 - 1)) ? "yes" : "no");
	printf("tick-5000000ns every 5 ms: %s\n",
	    (c4 >= 3 && l4 - f4 >= 1000000 * (c4 - 1) && l4 - f4 <= 50000000 * (c4 - 1)) ? "yes" : "no");
	printf("tick-5000000nsec every 5 ms: %s\n",
	    (c5 >= 3 && l5 - f5 >= 1000000 * (c5 - 1) && l5 - f5 <= 50000000 * (c5 - 1)) ? "yes" : "no");
	printf("tick-200hz every 5 ms: %s\n",
	    (c6 >= 3 && l6 - f6 >= 1000000 * (c6 - 1) && l6 - f6 <= 50000000 * (c6 - 1)) ? "yes" : "no");
	printf("tick-200 every 5 ms: %s\n",
	    (c7 >= 3 && l7 - f7 >= 1000000 * (c7 - 1) && l7 - f7 <= 50000000 * (c7 - 1)) ? "yes" : "no");
	exit(0);
}
