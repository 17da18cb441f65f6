tick-1s
{
	self->ticks -= 1;
}
