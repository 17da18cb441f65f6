short short x;
