BEGIN
x = 1;
