#pragma D option quiet

BEGIN
{
	printf("to standard output\n");
	freopen("%s", $$1);
	printf("to the file\n");
	freopen("");
	printf("back to standard output\n");
	exit(0);
}
