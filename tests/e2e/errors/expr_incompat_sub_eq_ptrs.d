BEGIN
{
	this->p = (int *)0;
	this->p -= (char *)0;
}
