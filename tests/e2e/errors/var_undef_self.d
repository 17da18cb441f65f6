BEGIN
{
	trace(self->start);
}
