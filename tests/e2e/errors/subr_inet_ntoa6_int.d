/* inet_ntoa6() takes an in6_addr_t * (DTrace's "string(in6_addr_t *)"), not any pointer. */
BEGIN
{
	this->p = (int *)alloca(16);
	trace(inet_ntoa6(this->p));
}
