/*
 * After a type, a typedef's name is the declared name (DTrace's lexer gives
 * it as an identifier), so a second name after it is a syntax error.
 */
typedef int t;
int t x;
