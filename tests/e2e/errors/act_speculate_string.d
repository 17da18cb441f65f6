BEGIN
{
	speculate("buffer");
}
