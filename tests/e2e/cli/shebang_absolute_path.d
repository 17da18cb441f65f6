BEGIN
{
	printf("run through #!%s -s, argument %s\n", "DTRACE", $$1);
	exit(0);
}
