#pragma D option quiet
#pragma D option statusrate=3s

/*
 * exit() reaches the consumer through the status it reads at statusrate:
 * the status read when tracing starts comes before this tick (a second in),
 * the next one 3 seconds later, so the run cannot end sooner (see the .sh).
 */
tick-1s
{
	printf("exit called\n");
	exit(0);
}
