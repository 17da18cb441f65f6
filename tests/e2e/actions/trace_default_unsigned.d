BEGIN
{
	trace((unsigned char)200);
	trace((unsigned short)60000);
	trace((unsigned int)4000000000);
	trace(18446744073709551615ULL);
	exit(0);
}
