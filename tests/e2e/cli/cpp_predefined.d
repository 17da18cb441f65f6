/* what the preprocessor is told about D (-C) */
BEGIN
{
#if defined(__unix) && defined(__SVR4)
	printf("unix svr4\n");
#endif
#ifdef __SUNW_D_64
	printf("LP64 D %d\n", __SUNW_D);
#endif
#ifdef __GNUC__
	printf("gcc\n");
#endif
	exit(0);
}
