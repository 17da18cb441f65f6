BEGIN
{
	trace((char)-1);
	trace((short)-1);
	trace((int)-1);
	trace((long long)-1);
	exit(0);
}
