BEGIN
{
	x = 1;
	this->p = (int *)0;
	x ^= this->p;
}
