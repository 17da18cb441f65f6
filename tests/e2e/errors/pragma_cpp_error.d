/* with -C, #error is the preprocessor's: it fails the compilation */
#ifndef LIMIT
#error LIMIT must be defined with -D
#endif
BEGIN
{
	exit(LIMIT);
}
