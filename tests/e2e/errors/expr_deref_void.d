BEGIN
{
	this->p = (void *)0;
	y = *this->p;
}
