/*
 * -x tree=5 on a program with nothing in it but a declaration: DTrace's
 * parser still makes a PROGRAM node, printed after parsing (pass 1) and
 * as the compilation ends (pass 3) around the error; offsetof is already
 * an int constant to the parser.
 */
struct s { int a; int b; };
int x[offsetof(struct s, b) + 1];
