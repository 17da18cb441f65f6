/*
 * Names in declarations as DTrace's dt_decl_spec() and dt_node_decl() take
 * them: after a type, a typedef name is the declared parameter's name; a D
 * global may be declared with an inline's name and type (it is the inline);
 * a thread-local may have a built-in variable's name.
 */
#pragma D option quiet

typedef int t;
int (*fp)(int t);
inline int k = 3;
int k;
self int pid;

BEGIN
{
	self->pid = 7;
	printf("%d %d %d\n", k, self->pid, fp == NULL);
	exit(0);
}
