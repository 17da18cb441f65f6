int a[int, void];
