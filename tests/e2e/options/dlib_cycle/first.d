/* Depends on second.d, which depends on this one: a cycle. */
#pragma D depends_on library second.d

inline int first_value = 1;
