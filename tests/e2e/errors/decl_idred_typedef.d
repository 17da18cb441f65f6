typedef int t;
typedef int t;
