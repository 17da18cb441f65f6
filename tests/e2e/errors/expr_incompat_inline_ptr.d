inline int *ip = "abc";
