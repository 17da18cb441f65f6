typedef int t[int];
inline t v = 1;
