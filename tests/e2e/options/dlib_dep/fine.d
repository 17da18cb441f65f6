inline int fine = 3;
