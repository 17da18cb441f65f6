/* an argument that reads as a name stands for that name */
BEGIN
{
	trace($1);
}
