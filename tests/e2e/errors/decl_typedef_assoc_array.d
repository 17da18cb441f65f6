/* the value type of this associative array is the void typedef t */
typedef string t[int, int];
self t x[int];
