/* translated data is of dynamic type in DTrace: no aggregation key */
struct raw {
	int r_val;
};
struct cooked {
	int c_val;
};
translator struct cooked < struct raw *rp > {
	c_val = rp->r_val;
};
BEGIN
{
	@[xlate<struct cooked>((struct raw *)0)] = count();
}
