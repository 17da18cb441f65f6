BEGIN
{
	/* only the constant 0 converts to a pointer parameter */
	bcopy(4096, alloca(8), 8);
}
