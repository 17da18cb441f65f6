#pragma D option quiet

BEGIN
{
	printf("%s\n", copyinstr(0));
}

BEGIN
{
	exit(0);
}
