/* -64: the LP64 data model, this host's own. */
BEGIN
{
	printf("%d %d %d %d\n", sizeof (long), sizeof (void *), sizeof (size_t), sizeof (0x100000000));
	exit(0);
}
