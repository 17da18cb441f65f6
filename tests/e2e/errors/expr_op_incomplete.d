BEGIN
{
	this->p = (struct nosuch *)0;
	y = this->p->a;
}
