/*
 * Only xxhash.h asks for <stdlib.h>, for its state allocators, which the
 * core never calls.  The kernel has no one-argument malloc: those helpers
 * get an allocator that always fails, so no C library name is referenced.
 */
#ifndef DTNB_SHIM_STDLIB_H
#define DTNB_SHIM_STDLIB_H
#define malloc(size) ((void)(size), (void *)0)
#define free(ptr) ((void)(ptr))
#endif
