BEGIN
{
	this->mask |= 4;
}
