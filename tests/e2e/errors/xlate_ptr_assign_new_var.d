/*
 * A translated pointer is of dynamic type: a new variable takes that type
 * and is then named by its kind, and nothing is compatible with a dynamic
 * type (DTrace's dt_node_is_ptrcompat() refuses dynamic operands), so the
 * result of xlate<T *>() cannot be kept in a variable.
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
	self->keep = xlate<struct cooked *>(src);
	exit(0);
}
