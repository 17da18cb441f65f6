BEGIN
{
	setopt("quiet");
	printf("now quiet\n");
}

BEGIN
{
	trace("still quiet");
	exit(0);
}
