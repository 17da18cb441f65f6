/*
 * types.h: the C types the module-type tests read back from CTF and DWARF.
 *
 * types.c is built three times into shared objects (gcc -gctf: CTF only;
 * gcc -g: DWARF 5; gcc -gdwarf-4: DWARF 4), and the tests compare what the
 * D compiler imports with what the C compiler says about these same types.
 * Every kind the importer handles appears: struct, union, enum, typedef,
 * bit-fields, arrays (one and two dimensions, flexible), pointers, function
 * pointers, anonymous members, self reference, a declared-only struct.
 */
#ifndef CTFTEST_TYPES_H
#define CTFTEST_TYPES_H

#include <stdint.h>

struct ct_point {
	int x;
	int y;
};

typedef struct ct_point ct_point_t;

enum ct_color { CT_RED, CT_GREEN = 5, CT_BLUE, CT_NEG = -3 };

union ct_num {
	int32_t i;
	uint8_t bytes[8];
	double d;
};

struct ct_bits {
	unsigned int a : 3;
	unsigned int b : 5;
	int c : 7;
	unsigned int d : 20;
	long tail;
	unsigned short e : 4;
	short f : 9;
};

struct ct_opaque; /* declared, never defined */

typedef int (*ct_handler_t)(int, const char *);

struct ct_node {
	struct ct_node *next; /* self reference */
	ct_point_t pos;
	struct ct_point *ppos;
	int arr[4];
	char name[16];
	short grid[2][3];
	ct_handler_t handler;
	long (*vfn)(const char *, ...);
	enum ct_color color;
	union ct_num num;
	struct ct_bits bits;
	struct ct_opaque *opaque;
	union {
		uint64_t u64;
		char c;
	}; /* anonymous member */
	const char *label;
	uint64_t big;
	unsigned char uc;
	char flex[]; /* flexible array member */
};

extern struct ct_node ct_global_node;
extern int ct_global_int;
extern ct_point_t ct_points[3];

#endif /* CTFTEST_TYPES_H */
