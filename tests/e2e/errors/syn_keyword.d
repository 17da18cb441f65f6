BEGIN
{
	x = do;
}
