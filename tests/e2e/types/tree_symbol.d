/*
 * -x tree=3: a module's global is an identifier after parsing and DTrace's
 * SYMBOL node (module`name, the symbol's type, Private/Private/Unknown, an
 * l-value) once cooked, though it is read here at its address.
 */
BEGIN
{
	x = libct_ctf.so`ct_global_int + 1;
	y = libct_ctf.so`ct_points[2].x;
}
