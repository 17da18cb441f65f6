#!/usr/bin/env -S dtrace -qs

BEGIN
{
	printf("run through #!/usr/bin/env -S dtrace -qs\n");
	exit(0);
}
