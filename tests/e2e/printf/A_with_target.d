/*
 * With -c (or -p) %A takes a plain integer as an address in $target's
 * process; one in no mapping prints as a number.
 */
BEGIN
{
	printf("%A\n", 0);
	exit(0);
}
