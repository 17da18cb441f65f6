/* A library's options are set once, when it is loaded, for the handle. */
#pragma D option quiet

inline int nine = 9;
