/* DTrace: a typedef of an associative array declarator names <DYN>, a typedef of void */
typedef int t[int];

t x;
