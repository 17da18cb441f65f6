END
{
	printa(pid);
}
