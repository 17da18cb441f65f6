/*
 * isa/riscv/jump.c: no jump-patched probes on riscv yet (isa/jump_none.c).
 * What one would take: a direct branch reaching the trampoline (+-1 MiB
 * with jal, or +-2 GiB with auipc+jalr through a register the copy must
 * then give back), and a copy that holds no PC-relative instruction.
 */
#include "jump_none.c"
