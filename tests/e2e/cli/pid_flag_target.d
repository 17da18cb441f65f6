#pragma D option quiet

BEGIN
{
	printf("$target is the grabbed process: %d\n", $target == $1);
	exit(0);
}
