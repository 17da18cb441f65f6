BEGIN
{
	depth = 5;
	stack(depth);
}
