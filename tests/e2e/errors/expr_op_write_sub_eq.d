BEGIN
{
	walltimestamp -= 1;
}
