struct nosuch x;
