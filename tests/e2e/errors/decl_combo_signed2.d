signed signed int x;
