#pragma D option quiet

BEGIN
{
	trace(*(int *)16);
}

ERROR
{
	printf("epid %d action %d offset %d fault %d addr 0x%x\n", arg1, arg2, arg3, arg4, arg5);
}

BEGIN
{
	exit(0);
}
