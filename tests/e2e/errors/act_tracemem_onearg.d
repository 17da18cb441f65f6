BEGIN
{
	tracemem(curthread);
}
