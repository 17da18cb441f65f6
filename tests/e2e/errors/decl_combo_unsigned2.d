unsigned unsigned int x;
