int a[static int];
