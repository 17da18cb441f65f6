BEGIN
{
	tracemem(curthread, 0);
}
