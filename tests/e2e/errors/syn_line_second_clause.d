BEGIN
{
	x = 1;
}

END
{
	y = x * "z";
}
