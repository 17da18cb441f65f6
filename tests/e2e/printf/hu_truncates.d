#pragma D option quiet

BEGIN
{
	printf("%hu\n", 65535 + 2);
	exit(0);
}
