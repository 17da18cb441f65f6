int a[3];
int a[3];

BEGIN
{
	exit(0);
}
