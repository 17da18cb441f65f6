/*
 * xlate<T>(e) of a struct is DTrace's translated data, named so in
 * messages (dt_node_type_name() of a DT_IDENT_XLSOU node).
 */
struct raw {
	int r_val;
};
struct cooked {
	int c_val;
};
translator struct cooked < struct raw *rp > {
	c_val = rp->r_val;
};
struct raw *src;

BEGIN
{
	x =
	    xlate<struct cooked>(src) + 1;
}
