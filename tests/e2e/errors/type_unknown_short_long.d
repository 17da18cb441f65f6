/* D has no integer type both short and long */
BEGIN
{
	sz = sizeof (long int short);
}
