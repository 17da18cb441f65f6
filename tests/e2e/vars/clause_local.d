#pragma D option quiet

int never;

BEGIN
{
	this->a = 3;
	this->b = this->a * 4;
	printf("%d\n", this->b);
	exit(0);
}
