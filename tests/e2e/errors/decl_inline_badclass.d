inline static int x = 1;
