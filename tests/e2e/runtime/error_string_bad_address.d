#pragma D option quiet

BEGIN
{
	printf("%s\n", stringof((char *)8));
}

BEGIN
{
	exit(0);
}
