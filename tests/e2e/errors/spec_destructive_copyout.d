BEGIN
{
	speculate(1);
	copyoutstr("gotcha", arg0, 7);
}
