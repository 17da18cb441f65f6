/* _symaddr is a type name, a typedef of void that no integer converts to */
BEGIN
{
	this->s = (_symaddr)0;
}
