static int x;
