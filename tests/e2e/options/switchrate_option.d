tick-1ms
/++n == 5/
{
	printf("switchrate\n");
	exit(0);
}
