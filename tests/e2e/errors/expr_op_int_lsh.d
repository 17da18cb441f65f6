BEGIN
{
	this->p = (char *)0;
	x = this->p << 1;
}
