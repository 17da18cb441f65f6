BEGIN
{
	system("echo system says %d", 42);
	exit(0);
}
