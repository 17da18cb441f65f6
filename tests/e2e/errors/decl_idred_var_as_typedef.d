int x;
typedef int x;
