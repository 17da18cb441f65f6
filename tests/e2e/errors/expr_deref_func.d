BEGIN
{
	this->f = (void (*)())0;
	y = *this->f;
}
