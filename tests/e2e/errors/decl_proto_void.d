int f(void, int);
