BEGIN
{
	bcopy(curthread, alloca(8));
}
