/*
 * -x tree=2: a cast to a userland pointer.  The type node, the cast (which
 * takes its flags from the type, as DTrace's dt_node_type_propagate does)
 * and the value read through it are USER; a variable first assigned the
 * pointer is too.
 */
BEGIN
{
	this->u = (userland int *)arg0;
	trace(*this->u);
}
