int a`b;
