/* Needs a library that failed to load: it fails to load too. */
#pragma D depends_on library other.d

inline int chain = other + 1;
