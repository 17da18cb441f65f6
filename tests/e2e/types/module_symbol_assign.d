/*
 * A module's global is an lvalue D cannot write: DTrace's symbol node is not
 * writable, so assignment to it fails to compile (not at run time).
 */
BEGIN
{
	libct_ctf.so`ct_global_int = 3;
}
