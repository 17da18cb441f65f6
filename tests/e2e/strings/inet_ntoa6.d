#pragma D option quiet

/*
 * inet_ntoa6() of an in6_addr_t *: ::1, and an address handed over as the
 * struct in6_addr the type names.
 */
BEGIN
{
	this->a = (in6_addr_t *)alloca(16);
	((uint64_t *)this->a)[0] = 0;
	((uint64_t *)this->a)[1] = 0;
	((uint8_t *)this->a)[15] = 1;
	printf("%s\n", inet_ntoa6(this->a));
	this->b = (struct in6_addr *)this->a;
	((uint8_t *)this->b)[0] = 0xfe;
	((uint8_t *)this->b)[1] = 0x80;
	printf("%s\n", inet_ntoa6(this->b));
	exit(0);
}
