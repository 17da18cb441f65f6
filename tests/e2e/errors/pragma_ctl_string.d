BEGIN
{
#"not a directive"
	exit(0);
}
