/*
 * progenyof() walks every parent up to the root: the grandparent ($1, the
 * shell's parent), pid 1 and the root's 0 are ancestors; a sibling ($2) is
 * not.
 */
#pragma D option quiet

BEGIN
{
	printf("self %d parent %d grandparent %d\n", progenyof($pid), progenyof($ppid),
	    progenyof($1));
	printf("init %d root %d sibling %d\n", progenyof(1), progenyof(0), progenyof($2));
	exit(0);
}
