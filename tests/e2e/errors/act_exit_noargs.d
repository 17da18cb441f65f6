BEGIN
{
	exit();
}
