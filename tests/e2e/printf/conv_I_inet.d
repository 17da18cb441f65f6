#pragma D option quiet

/*
 * %I: an address string prints as the host's name from the host database
 * (127.0.0.1 is localhost in /etc/hosts), with the conversion's width;
 * a string that is no address prints as it is.
 */
BEGIN
{
	printf("%I|%12I|%-12I|%I|\n", "127.0.0.1", "127.0.0.1", "127.0.0.1", "no address");
	exit(0);
}
