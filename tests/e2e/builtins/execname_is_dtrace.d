#pragma D option quiet

BEGIN
{
	printf("%s\n", execname);
	exit(0);
}
