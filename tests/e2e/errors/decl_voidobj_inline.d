inline void v = 1;
