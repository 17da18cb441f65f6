/*
 * A struct nested inside a union cannot hold the enclosing union by value:
 * the union is still being defined.
 */
union outer {
	long l;
	struct inner {
		char c;
		union outer u;
	} in;
};

BEGIN
{
	exit(0);
}
