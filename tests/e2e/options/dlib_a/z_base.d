/* A D library: a type and an inline for every program. */
typedef int answer_t;
inline answer_t answer = 42;
