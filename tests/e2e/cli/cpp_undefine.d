#ifdef FEATURE
BEGIN
{
	printf("FEATURE defined\n");
	exit(0);
}
#else
BEGIN
{
	printf("FEATURE undefined\n");
	exit(0);
}
#endif
