struct out { int x; };
translator struct out * < int v > { x = v; };
