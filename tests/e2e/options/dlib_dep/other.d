/* Needs a library no library directory has: it fails to load. */
#pragma D depends_on library nowhere.d

inline int other = 1;
