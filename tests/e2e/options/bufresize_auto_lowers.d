/*
 * bufresize=auto (the default): a principal buffer too large to allocate is
 * halved until it fits, and dtrace says what it settled on (the size this
 * machine allows varies, hence the filter).
 */
BEGIN
{
	printf("traced\n");
	exit(0);
}
