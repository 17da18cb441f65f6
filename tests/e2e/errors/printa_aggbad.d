END
{
	printa(@c[0]);
}
