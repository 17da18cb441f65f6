/*
 * target.c: a process to trace with -p, whose program carries types.h's
 * types (linked with types.c, built with gcc -gctf).  It prints where its
 * ct_global_int is, then waits to be killed.
 */
#include <stdio.h>
#include <unistd.h>

#include "types.h"

int
main(void)
{
	printf("%p\n", (void *)&ct_global_int);
	fflush(stdout);
	for (;;)
		pause();
}
