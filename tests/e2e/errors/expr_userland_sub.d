/* the difference of a kernel and a userland pointer is refused: they are incompatible */
BEGIN
{
	this->k = (int *)alloca(sizeof (int));
	trace((userland int *)this->k - this->k);
}
