/*
 * tests/port/usdt_operands_aarch64.c: SystemTap argument descriptors as
 * GCC writes them on AArch64 (port/linux/usdt_operand_aarch64.c) become
 * recipes, and the engine's probe-context evaluation reads the right value
 * from x and w registers, sp, constants (with or without `#`) and memory at
 * a base register plus a displacement, with the size and sign each gives;
 * what cannot be understood, or faults, reads 0.  The forms are those of
 * the notes GCC 12 makes at -O0 to -O3 for registers, stack slots,
 * globals, structure fields and array elements.
 */
#include <string.h>

#include "usdt_operands.h"

int
main(void)
{
	isa_regs_t r;
	inst_arg_t a;
	int ok;

	regs_setup(&r);
	r.r[ISA_REG_X0] = 0xfffffffffffffffeULL;
	r.r[ISA_REG_X0 + 2] = 0x1c8; /* an unsigned char 200 with junk above it */
	r.r[ISA_REG_X0 + 3] = 0xfffffffbULL;
	r.r[ISA_REG_X0 + 4] = (uint64_t)(uintptr_t)mem16;
	r.r[ISA_REG_X0 + 19] = 0x1234;
	r.r[ISA_REG_X29] = (uint64_t)(uintptr_t)&mem64[2];
	r.r[ISA_REG_SPREG] = (uint64_t)(uintptr_t)&mem64[0];

	/* registers, x and w, extended by the descriptor's sign */
	WANT("-8@x0", &r, -2);
	WANT("8@x0", &r, 0xfffffffffffffffeULL);
	WANT("-4@x0", &r, -2);
	WANT("4@x0", &r, 0xfffffffeULL);
	WANT("-4@w0", &r, -2);
	WANT("-8@w0", &r, 0xfffffffeULL); /* a w register is 32 bits: nothing to extend */
	WANT("1@x2", &r, 200);
	WANT("-1@x2", &r, -56);
	WANT("-1@x3", &r, -5);
	WANT("8@x19", &r, 0x1234);
	WANT("8@sp", &r, (uint64_t)(uintptr_t)&mem64[0]);
	WANT("x19", &r, 0x1234); /* version 1 notes: no size, 8 bytes */
	/* constants */
	WANT("-4@5", &r, 5);
	WANT("-4@-7", &r, -7);
	WANT("-4@#-7", &r, -7);
	WANT("-8@1234567890123", &r, 1234567890123LL);
	WANT("4@0x12345678", &r, 0x12345678);
	WANT("1@300", &r, 300 & 0xff);
	/* memory: [base], [base, disp] with sp, x29 and any x register */
	WANT("-8@[sp]", &r, -1);
	WANT("-8@[sp, 8]", &r, 0x7fffffff00000002LL);
	WANT("-4@[sp, 8]", &r, 2);
	WANT("2@[sp, 14]", &r, 0x7fff);
	WANT("-8@[x29, -16]", &r, -1);
	WANT("-8@[x29, #-8]", &r, 0x7fffffff00000002LL);
	WANT("-8@[x29]", &r, 3);
	WANT("-2@[x4, 2]", &r, -2);
	WANT("2@[x4, 6]", &r, 0xfffc);
	WANT("-2@[ x4 , 6 ]", &r, -4);
	/* a bad address reads 0 */
	r.r[ISA_REG_X0 + 5] = 16;
	WANT("8@[x5]", &r, 0);
	/* not understood: 0 */
	REFUSED("8@[w4]", &r);	   /* a base is 64 bits */
	REFUSED("8@x31", &r);	   /* x31 is sp or xzr: the compiler says which */
	REFUSED("8@[x0, x1]", &r); /* register offsets are not written by GCC */
	REFUSED("8@[x0, #:lo12:object_var]", &r);
	REFUSED("8@v0", &r);
	REFUSED("8@[x0", &r);
	REFUSED("8@", &r);
	/* the recipe and its type name */
	(void)eval("-2@[x4, 2]", &r, &ok, &a);
	CHECK(a.ia_kind == INST_ARG_MEM && a.ia_size == 2 && a.ia_signed &&
		      a.ia_base == ISA_REG_X0 + 4 && a.ia_disp == 2,
	      "-2@[x4, 2] recipe");
	CHECK(strcmp(linux_usdt_arg_type(&a), "int16_t") == 0, "type %s", linux_usdt_arg_type(&a));
	(void)eval("1@x2", &r, &ok, &a);
	CHECK(a.ia_kind == INST_ARG_REG && a.ia_regbytes == 8 && !a.ia_signed,
	      "1@x2 recipe");
	CHECK(strcmp(linux_usdt_arg_type(&a), "uint8_t") == 0, "type %s", linux_usdt_arg_type(&a));
	TEST_DONE();
}
