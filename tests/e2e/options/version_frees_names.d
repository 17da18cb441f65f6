#pragma D option quiet
#pragma D option version=1.2

/* strtoll (1.11) and print (1.9) came after 1.2: here they are plain variables */
BEGIN
{
	strtoll = 10;
	print = "mine";
	printf("%d %s %s\n", strtoll + 1, print, substr("version", 0, 4));
	exit(0);
}
