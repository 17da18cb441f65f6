BEGIN
{
	sym(caller, 1);
}
