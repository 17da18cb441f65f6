/*
 * offsetof() is an int constant, as DTrace's parser makes it
 * (dt_node_offsetof returns dt_node_int's constant), not a size_t: an
 * offset minus a larger number is negative.
 */
struct s {
	int a;
	int b;
};

BEGIN
{
	x = offsetof(struct s, b) - 8;
	printf("%d %s %d\n", x, x < 0 ? "negative" : "positive", sizeof (offsetof(struct s, b)));
	exit(0);
}
