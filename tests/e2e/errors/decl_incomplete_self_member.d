/*
 * A struct cannot hold itself by value, even after other members: while
 * its definition is open DTrace still sees it as incomplete (size 0).
 */
struct node {
	int key;
	struct node next;
};

BEGIN
{
	exit(0);
}
