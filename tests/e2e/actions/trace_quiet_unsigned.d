#pragma D option quiet

BEGIN
{
	trace((unsigned char)200);
	trace(" ");
	trace((unsigned short)60000);
	trace(" ");
	trace((unsigned int)4000000000);
	trace(" ");
	trace(18446744073709551615ULL);
	trace("\n");
	exit(0);
}
