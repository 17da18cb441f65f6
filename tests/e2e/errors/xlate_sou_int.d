translator int < int v > { a = v; };
