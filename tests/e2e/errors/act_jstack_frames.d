BEGIN
{
	jstack(0);
}
