extern int x;
int x(char *, ...);
