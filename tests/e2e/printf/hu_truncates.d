#pragma D option quiet

BEGIN
{
	printf("%hu\n", (unsigned short)(65535 + 2));
	exit(0);
}
