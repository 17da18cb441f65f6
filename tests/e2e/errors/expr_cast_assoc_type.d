BEGIN
{
	trace((int [int])1);
}
