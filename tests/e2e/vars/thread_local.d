#pragma D option quiet

int never;

BEGIN
{
	self->t = 9;
	printf("%d\n", self->t);
	exit(0);
}
