#pragma D option quiet

BEGIN
{
	x = 10;
}

BEGIN
/x > 5/
{
	printf("big\n");
}

BEGIN
/x < 5/
{
	printf("small\n");
}

BEGIN
{
	exit(0);
}
