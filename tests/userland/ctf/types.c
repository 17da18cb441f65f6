/*
 * types.c: definitions that make the compilers emit every type of types.h,
 * and globals the tests read through `module`symbol'.
 */
#include "types.h"

struct ct_node ct_global_node = {
	.pos = {3, 4},
	.arr = {10, 20, 30, 40},
	.name = "ctnode",
	.color = CT_BLUE,
	.bits = {.a = 5, .b = 17, .c = -9, .d = 123456, .tail = 77, .e = 9, .f = -100},
	.label = "label",
	.big = 0x1122334455667788ull,
	.uc = 200,
};
int ct_global_int = 4242;
ct_point_t ct_points[3] = {{1, 2}, {3, 4}, {5, 6}};

/* keep the function-pointer typedef and union referenced */
int
ct_use(ct_handler_t h, union ct_num *n)
{
	return h != 0 ? h(n->i, "x") : 0;
}
