#pragma D option quiet
#pragma D option statusrate=2s

/*
 * exit() reaches the consumer through the status it reads at statusrate:
 * the status read when tracing starts comes before this tick, the next one
 * 2 seconds later, so the run cannot end sooner (see the .sh).
 */
tick-10ms
{
	printf("exit called\n");
	exit(0);
}
