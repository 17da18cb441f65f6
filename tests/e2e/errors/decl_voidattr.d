unsigned void x;
