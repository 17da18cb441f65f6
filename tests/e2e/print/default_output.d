/* print() without quiet: after the probe's columns; a scalar's line ends
   and the record's newline follows (a blank line), a struct's closing
   brace is followed directly by the next record. */
struct two { int a; char b; };

BEGIN
{
	print(42);
}

BEGIN
{
	this->t = (struct two *)alloca(sizeof(struct two));
	this->t->a = 3;
	this->t->b = 'x';
	print(*this->t);
	trace(7);
}

BEGIN
{
	exit(0);
}
