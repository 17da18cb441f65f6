inline int k = 1;
long k;
