/* $pid expands in a probe description; $2 has no argument behind it */
pid$pid:::$2
{
	exit(0);
}
