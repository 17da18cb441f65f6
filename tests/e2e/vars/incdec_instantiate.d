/*
 * ++ and -- create a variable nothing has assigned yet, as an int64_t 0;
 * a compound assignment may then use it (on its own it may not: see
 * errors/var_undef_add_eq).
 */
#pragma D option quiet

BEGIN
{
	n++;
	n += 41;
	self->down--;
	self->down *= 3;
	this->t++;
	this->t <<= 4;
	hits["a"]++;
	hits["a"] |= 6;
	printf("%d %d %d %d %d\n", n, self->down, this->t, hits["a"], sizeof (n));
	exit(0);
}
