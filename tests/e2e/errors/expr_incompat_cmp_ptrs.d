BEGIN
{
	this->p = (int *)0;
	this->q = (char *)0;
	x = this->p == this->q;
}
