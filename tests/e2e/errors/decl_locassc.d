this int a[int];
