void a[4];
