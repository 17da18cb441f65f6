/* Depends on a file that exists but is no library (its name does not end in .d). */
#pragma D depends_on library notes.txt

inline int uses_notes = 1;
