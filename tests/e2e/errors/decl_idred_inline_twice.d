inline int k = 1;
inline int k = 2;
