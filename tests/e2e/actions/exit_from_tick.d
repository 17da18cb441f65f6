#pragma D option quiet

tick-10ms
{
	n++;
}

tick-10ms
/n == 3/
{
	printf("three ticks\n");
	exit(0);
}
