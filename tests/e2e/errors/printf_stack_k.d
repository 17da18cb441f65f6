/* %k takes a stack, but stack() has no value as a printf() argument */
BEGIN
{
	printf("%k\n", stack());
}
