/* inet_ntoa() takes an ipaddr_t * (DTrace's "string(ipaddr_t *)"), not any pointer. */
BEGIN
{
	this->p = (int *)alloca(4);
	trace(inet_ntoa(this->p));
}
