BEGIN
{
	tracemem(curthread, 64, "eight");
}
