int a[2][int];
