BEGIN
{
	/* outer /* inner */
}
