extern int x;
extern long x;
