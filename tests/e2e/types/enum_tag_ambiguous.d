/*
 * A module's enumerator on the right of a comparison with its enum is the
 * tag's value (CT_BLUE), unless a D global has the same name: DTrace then
 * refuses the comparison as ambiguous (D_IDENT_AMBIG).
 */
int CT_GREEN;

BEGIN
{
	this->n = (struct ct_node *)alloca(sizeof(struct ct_node));
	trace(this->n->color == CT_BLUE);
	trace(this->n->color == CT_GREEN);
}
