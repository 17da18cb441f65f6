BEGIN
{
	printa("%d\n", timestamp);
}
