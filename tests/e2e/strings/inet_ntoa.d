#pragma D option quiet

BEGIN
{
	this->a = (ipaddr_t *)alloca(sizeof (ipaddr_t));
	*this->a = 0x0100007f;
	printf("%s\n", inet_ntoa(this->a));
	exit(0);
}
