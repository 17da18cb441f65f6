/* the only floating-point types are float, double and long double */
BEGIN
{
	sz = sizeof (long float);
}
