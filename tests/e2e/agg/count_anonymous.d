#pragma D option quiet

BEGIN
{
	@ = count();
	@ = count();
	@ = count();
	exit(0);
}
