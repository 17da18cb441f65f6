/* #define needs -C: without it the line reaches the D compiler */
#define LIMIT 10
BEGIN { exit(0); }
