END
{
	printa();
}
