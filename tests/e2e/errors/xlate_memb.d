struct out { int x; };
translator struct out < int v > { y = v; };
