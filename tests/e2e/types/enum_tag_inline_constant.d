/*
 * An inline integer constant named like a module enum's tag is that
 * constant on the right of a comparison with the enum, as DTrace's parser
 * has already made it an integer: CT_GREEN here is 6 (CT_BLUE's value),
 * not the tag's 5.
 */
#pragma D option quiet

inline int CT_GREEN = 6;

BEGIN
{
	this->n = (struct ct_node *)alloca(sizeof(struct ct_node));
	this->n->color = 6;
	printf("%d %d\n", this->n->color == CT_GREEN, this->n->color == CT_BLUE);
	exit(0);
}
