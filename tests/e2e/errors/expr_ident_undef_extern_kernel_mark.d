/*
 * `name searches the kernel's modules only: DTrace's "D" module, which holds
 * the program's externs, is not one of them.
 */
extern int ext_counter;

BEGIN
{
	trace(`ext_counter);
}
