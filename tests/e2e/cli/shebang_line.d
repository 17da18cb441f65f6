#!/usr/sbin/dtrace -qs

BEGIN
{
	printf("shebang\n");
	exit(0);
}
