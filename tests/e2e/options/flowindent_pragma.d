#pragma D option flowindent

BEGIN
{
	exit(0);
}
