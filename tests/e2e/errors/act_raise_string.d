BEGIN
{
	raise("SIGINT");
}
