/* a header's own definitions of types D also has, as C library headers make */
typedef char int8_t;
typedef int pid_t;
typedef struct hdr_pair {
	int8_t a;
	pid_t b;
} hdr_pair_t;
