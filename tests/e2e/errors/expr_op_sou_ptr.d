BEGIN
{
	this->p = (int *)0;
	y = this->p->a;
}
