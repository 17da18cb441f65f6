BEGIN
{
	this->seen[pid] = 1;
}
