typedef int foo_t;
typedef struct node { foo_t foo_t; const foo_t x; struct node *next; int bits : 3, : 2, more : 4; } node_t;
enum colour { RED, GREEN = 3, BLUE, };
int (*fp)(int, char *, ...);
int (*gp)(int (foo_t), int *foo_t, int (*)(foo_t));
int *foo_t_ptrs[4], (*rows)[8];
int table[string, int];
self int depth;
this node_t *cur;
inline int LIMIT = sizeof (node_t) * 2;
inline int foo_t = 3;
BEGIN
{
	this->cur = (node_t *)alloca(sizeof (node_t));
	this->cur->foo_t = foo_t;
	this->cur->x = LIMIT;
	table["a", 1] = offsetof(node_t, next);
	self->depth = BLUE;
	trace(this->cur->foo_t + this->cur->x + table["a", 1] + self->depth);
	print(*this->cur);
	exit(0);
}
