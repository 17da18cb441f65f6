int a[...];
