BEGIN
/execname/
{
	exit(0);
}
