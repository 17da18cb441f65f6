struct t { int a; };
struct t { int b; };
