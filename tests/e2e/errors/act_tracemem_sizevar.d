BEGIN
{
	n = 16;
	tracemem(curthread, n);
}
