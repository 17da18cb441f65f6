/* a scalar inline with [ ] is pointer indexing, *(E1 + E2): an int is not a pointer */
inline int base = 3 + pid;

BEGIN
{
	trace(base[1]);
}
