BEGIN
{
	speculate(1);
	stop();
}
