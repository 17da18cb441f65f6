auto int f(int);
