self void v;
