int a[int];
int a;
