#pragma D binding "one.zero" limit
inline int limit = 10;
BEGIN { exit(0); }
