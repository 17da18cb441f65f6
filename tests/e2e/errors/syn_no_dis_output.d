BEGIN
{
	x = "a" + "b";
}

END
{
	trace(1);
}
