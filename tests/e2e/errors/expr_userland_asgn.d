/* a userland pointer may not be assigned to a variable holding a kernel pointer */
BEGIN
{
	this->k = (int *)alloca(sizeof (int));
	this->u = (userland int *)this->k;
	this->k = this->u;
}
