BEGIN
{
	this->p = (int *)0;
	this->p |= 1;
}
