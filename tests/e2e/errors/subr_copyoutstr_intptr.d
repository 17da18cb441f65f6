#pragma D option destructive

BEGIN
{
	/* the string parameter is a char *: an int * is not one */
	copyoutstr((int *)alloca(4), 0, 4);
}
