struct in { int a; };
struct out { int x; };
translator struct out < struct in *p > { x = p->a; };
translator struct out < struct in *p > { x = p->a + 1; };
