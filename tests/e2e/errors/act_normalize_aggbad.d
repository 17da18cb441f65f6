END
{
	normalize(@bytes[0], 1024);
}
