/*
 * int *list[] declares an array (the top of DTrace's declaration stack),
 * and a variable's array needs a dimension.
 */
int *list[];

BEGIN
{
	exit(0);
}
