BEGIN
{
	x = this->delta + 1;
}
