/*
 * A translator's struct member cannot be given translated data: DTrace
 * checks each member with dt_node_is_argcompat(), which compares a struct
 * with the dynamic type of xlate<T>(e) and finds them incompatible.
 */
struct half {
	int v;
};
struct whole {
	struct half h;
};
translator struct half < int x > {
	v = x * 2;
};
translator struct whole < int x > {
	h = xlate<struct half>(x);
};
