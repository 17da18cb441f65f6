/*
 * With the fill policy END's records are reserved in the buffer up front;
 * an END clause that needs more than the whole buffer is refused at GO.
 */
BEGIN
{
	exit(0);
}

END
{
	printf("%s %s %s %s %s\n", "one", "two", "three", "four", "five");
}
