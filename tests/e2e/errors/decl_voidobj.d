void x;
