inline int foo = "abc";
