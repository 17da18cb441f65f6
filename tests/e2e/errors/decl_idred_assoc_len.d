int a[int];
int a[int, int];
