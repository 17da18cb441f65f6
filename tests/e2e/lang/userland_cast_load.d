/*
 * A cast to a userland pointer reads memory through the user-load
 * instructions; in this user-space port the D scratch space (alloca) is
 * in the traced process's own address space, so a userland view of it
 * reads back what was stored through the kernel view.  Every width and
 * signedness, indexing, and a variable that takes the userland type.
 */
BEGIN
{
	this->m = (char *)alloca(16);
	*(long long *)this->m = 0x1122334455667788LL;
	*(int *)(this->m + 8) = -5;
	*(short *)(this->m + 12) = -300;
	this->m[14] = -2;
	this->m[15] = 'z';

	printf("%x\n", *(userland long long *)this->m);
	printf("%d %u\n", *(userland int *)(this->m + 8), *(userland unsigned int *)(this->m + 8));
	printf("%d %u\n", *(userland short *)(this->m + 12), *(userland unsigned short *)(this->m + 12));
	printf("%d %u\n", *(userland char *)(this->m + 14), *(userland unsigned char *)(this->m + 14));

	this->u = (userland char *)this->m;
	printf("%c %d\n", this->u[15], this->u[14]);
	printf("%d\n", ((userland int *)this->m)[2]);
	exit(0);
}
