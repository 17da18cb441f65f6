BEGIN
{
	x = timestamp ? "a" : 1;
}
