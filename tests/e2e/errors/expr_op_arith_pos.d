BEGIN
{
	this->p = (int *)0;
	x = +this->p;
}
