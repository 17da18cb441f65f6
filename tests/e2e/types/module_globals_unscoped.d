/*
 * `sym and ``sym name a global of no particular module: DTrace looks it up
 * in every kernel module or every user module, the first in load order that
 * has it.  Here each loaded object is both, so both marks find the preloaded
 * objects' globals, in any expression: a predicate, trace(), sizeof, members
 * and elements, an aggregation's key.
 */
#pragma D option quiet

BEGIN
/`ct_global_int == 4242 && ``ct_global_int == `ct_global_int/
{
	printf("%d %d %d\n", `ct_global_int, ``ct_points[2].y, sizeof (`ct_global_node));
	@keys[`ct_points[1].x] = count();
	exit(0);
}

END
{
	printa("key %d: %@d\n", @keys);
}
