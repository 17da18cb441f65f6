BEGIN
{
	denormalize(1);
}
