/* && and || evaluate their right side only when needed; ^^ and ?:'s
   condition always evaluate what they must, and only the chosen arm of ?:. */
#pragma D option quiet

BEGIN
{
	x = 0;
	y = 0 && (x = 1);
	z = 1 || (x = 2);
	printf("%d %d %d\n", x, y, z);
	w = 0 ^^ (x = 3);
	printf("%d %d\n", x, w);
	v = x == 3 ? (x = 4) : (x = 5);
	printf("%d %d\n", x, v);
	u = 1 && (x = 6);
	t = 0 || (x = 7);
	printf("%d %d %d\n", x, u, t);
	/* a predicate's && stops at the first false operand */
	n = 0;
}

BEGIN
/n++ == 1 && (n += 10)/
{
	printf("not reached\n");
}

BEGIN
{
	printf("%d\n", n);
	exit(0);
}
