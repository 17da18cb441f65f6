BEGIN
/a[1/
{
	exit(0);
}
