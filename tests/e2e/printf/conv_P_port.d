#pragma D option quiet

/*
 * %P: a uint16_t port number prints as its service name from the services
 * database (/etc/services: 22 ssh, 80 http), with the conversion's width;
 * a port without a name prints as the number.
 */
BEGIN
{
	printf("%P|%-6P|%8P|%P|\n", (uint16_t)22, (uint16_t)22, (uint16_t)80, (uint16_t)54321);
	exit(0);
}
