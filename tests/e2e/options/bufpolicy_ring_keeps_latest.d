#pragma D option quiet
#pragma D option bufpolicy=ring
#pragma D option bufsize=1k

tick-1ms
/n < 10/
{
	printf("%s %d\n", "line", ++n);
}

tick-1ms
/n == 10/
{
	exit(0);
}

END
{
	printf("end\n");
}
