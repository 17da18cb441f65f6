/*
 * The array declarator lands above the parenthesised pointer, so the
 * typedef names DTrace's dynamic type (a typedef of void), not a pointer
 * to it: no variable may have it.
 */
typedef int (*dyn_ptr_t)[int];
dyn_ptr_t value;

BEGIN
{
	exit(0);
}
