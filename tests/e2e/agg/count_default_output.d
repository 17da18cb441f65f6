BEGIN
{
	@ = count();
	@ = count();
	exit(0);
}
