#pragma D option bufresize=sometimes
BEGIN
{
	exit(0);
}
