BEGIN
;
{
	exit(0);
}
