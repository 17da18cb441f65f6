/*
 * -S: a load through a userland pointer is a user load (uldsb .. uldx),
 * one through the same pointer cast without userland an ordinary load.
 * The filter keeps the load instructions of the listing only.
 */
BEGIN
{
	this->m = (char *)alloca(8);
	*(long long *)this->m = 0;
	this->v = *(userland char *)this->m;
	this->v = *(userland unsigned char *)this->m;
	this->v = *(userland short *)this->m;
	this->v = *(userland unsigned short *)this->m;
	this->v = *(userland int *)this->m;
	this->v = *(userland unsigned int *)this->m;
	this->v = *(userland long long *)this->m;
	this->v = *(int *)this->m;
	exit(0);
}
