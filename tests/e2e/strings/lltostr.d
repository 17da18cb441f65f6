#pragma D option quiet

BEGIN
{
	printf("%s %s\n", lltostr(-42), lltostr(0));
	exit(0);
}
