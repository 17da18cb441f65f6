int f(int a, int a);
