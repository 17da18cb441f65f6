/* A library that does not compile fails every compilation. */
inline int broken = ;
