/* Depends on first.d, closing the cycle. */
#pragma D depends_on library first.d

inline int second_value = 2;
