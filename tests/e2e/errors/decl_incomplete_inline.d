inline struct nosuch s = 1;
