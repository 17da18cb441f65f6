BEGIN
{
	this->p = (struct nosuch *)0;
	y = sizeof (*this->p);
}
