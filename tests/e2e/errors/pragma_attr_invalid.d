inline int limit = 10;
#pragma D attributes Rock/Solid/Common limit
BEGIN { exit(0); }
