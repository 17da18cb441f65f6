/*
 * isa/aarch64/jump.c: no jump-patched probes on aarch64 yet (isa/jump_none.c).
 * What one would take: a direct branch reaching the trampoline (+-128 MiB (b)),
 * and a copy that holds no PC-relative instruction.
 */
#include "jump_none.c"
