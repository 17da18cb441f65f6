/* without -p or -c an integer is no user address for %A */
BEGIN
{
	printf("%A\n", arg0);
}
