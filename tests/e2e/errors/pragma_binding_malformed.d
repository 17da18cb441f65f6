#pragma D binding 1.0 limit
inline int limit = 10;
BEGIN { exit(0); }
