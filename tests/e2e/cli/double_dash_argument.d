/* after "--" the next argument is $1 even when it looks like an option; options are read again after it */
BEGIN
{
	printf("%s\n", $$1);
	exit(0);
}
