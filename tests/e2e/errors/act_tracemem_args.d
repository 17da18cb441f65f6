BEGIN
{
	tracemem(curthread, 64, 8, 4);
}
