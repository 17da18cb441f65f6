typedef int t;
int t;
