/*
 * Declarations DTrace takes for externs, symbols of its "D" module: a
 * function declared at program scope (plain, static or extern) and extern
 * variables.  A second declaration of the same type is accepted (every
 * function type is the same to DTrace), nothing becomes a D variable, and
 * the names stay free for D's own: x below is a D global.
 */
#pragma D option quiet

int f(int);
static long g(char *, ...);
extern int h(void), x;
extern int x;
int f(int);
extern long g(int);
extern int (*fp)(int);
extern int (*fp)(void);

BEGIN
{
	x = 5;
	printf("%d\n", x);
	exit(0);
}
