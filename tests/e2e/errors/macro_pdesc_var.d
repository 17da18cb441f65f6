pid$ppidd:::entry
{
	exit(0);
}
