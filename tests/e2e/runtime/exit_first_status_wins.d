#pragma D option quiet

BEGIN
{
	exit(4);
}

BEGIN
{
	exit(5);
}
