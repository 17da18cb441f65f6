#pragma D option pspec
#pragma D option zdefs
/* with pspec a type name at the start of a clause is a probe name */
uint64_t
/1/
{
	exit(0);
}
BEGIN
{
	printf("begin\n");
	exit(0);
}
