translator struct nosuch < int v > { a = v; };
