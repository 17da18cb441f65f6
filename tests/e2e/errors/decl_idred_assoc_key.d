int a[int];
int a[string];
