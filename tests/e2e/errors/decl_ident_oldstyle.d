typedef int t;
int t x;
