/*
 * An extern the program declares is a symbol of DTrace's "D" module.
 * D``name names it, and so does ``name: the search of every user module
 * meets "D" before the system's modules.  Either gives the declared type
 * (the symbol itself has no address, so this test only measures it).
 */
#pragma D option quiet

extern int ext_counter;
extern char ext_name[12];

BEGIN
{
	printf("%d %d %d\n", sizeof (D``ext_counter), sizeof (``ext_counter), sizeof (``ext_name));
	exit(0);
}
