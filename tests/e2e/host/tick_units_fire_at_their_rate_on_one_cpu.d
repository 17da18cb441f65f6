/*
 * tick-N with every sub-second unit DTrace accepts, each naming 200 firings
 * a second: over the 200 ms before tick-200ms each fires about 40 times
 * (accepted: 20 to 50), and every tick probe fires on one and the same CPU.
 */
#pragma D option quiet

int halt, first, tickcpu, othercpu;
int c0;
int c1;
int c2;
int c3;
int c4;
int c5;
int c6;
int c7;

tick-5ms
/!first/
{
	first = 1;
	tickcpu = cpu;
}

tick-5ms
/!halt/
{
	c0++;
	othercpu += cpu != tickcpu;
}

tick-5msec
/!halt/
{
	c1++;
	othercpu += cpu != tickcpu;
}

tick-5000us
/!halt/
{
	c2++;
	othercpu += cpu != tickcpu;
}

tick-5000usec
/!halt/
{
	c3++;
	othercpu += cpu != tickcpu;
}

tick-5000000ns
/!halt/
{
	c4++;
	othercpu += cpu != tickcpu;
}

tick-5000000nsec
/!halt/
{
	c5++;
	othercpu += cpu != tickcpu;
}

tick-200hz
/!halt/
{
	c6++;
	othercpu += cpu != tickcpu;
}

tick-200
/!halt/
{
	c7++;
	othercpu += cpu != tickcpu;
}

tick-200ms
{
	halt = 1;
	othercpu += cpu != tickcpu;
	printf("all tick probes on one CPU: %s\n", othercpu == 0 ? "yes" : "no");
	printf("tick-5ms: %s\n", c0 >= 20 && c0 <= 50 ? "yes" : "no");
	printf("tick-5msec: %s\n", c1 >= 20 && c1 <= 50 ? "yes" : "no");
	printf("tick-5000us: %s\n", c2 >= 20 && c2 <= 50 ? "yes" : "no");
	printf("tick-5000usec: %s\n", c3 >= 20 && c3 <= 50 ? "yes" : "no");
	printf("tick-5000000ns: %s\n", c4 >= 20 && c4 <= 50 ? "yes" : "no");
	printf("tick-5000000nsec: %s\n", c5 >= 20 && c5 <= 50 ? "yes" : "no");
	printf("tick-200hz: %s\n", c6 >= 20 && c6 <= 50 ? "yes" : "no");
	printf("tick-200: %s\n", c7 >= 20 && c7 <= 50 ? "yes" : "no");
	exit(0);
}
