BEGIN
{
	p = alloca("sixteen");
}
