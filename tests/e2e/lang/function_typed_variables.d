/*
 * A thread-local, clause-local or global variable may be declared with a
 * function type, as DTrace's dt_node_decl() allows for every storage class
 * but static, auto and register (a plain or static one is an extern).
 * Every function declarator has the one type "int ()", so declaring the
 * same variable again with another prototype changes nothing.
 */
#pragma D option quiet

self int f(int);
self char *f(char, long);
this int g(void);
typedef int fn_t(int);
fn_t h;

BEGIN
{
	printf("declared\n");
	exit(0);
}
