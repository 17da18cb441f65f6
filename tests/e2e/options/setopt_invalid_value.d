#pragma D option quiet

BEGIN
{
	setopt("bufsize", "bogus");
	printf("after setopt\n");
	exit(0);
}
