/*
 * tests/port/usdt_operands.c: SystemTap argument descriptors on x86_64
 * (port/linux/usdt_operand_x86_64.c) become recipes, and the engine's
 * probe-context evaluation (inst/inst_args.c) reads the right value from
 * registers, constants and memory, with the size and sign each gives; what
 * cannot be understood, or faults, reads 0.  (usdt_operands_aarch64.c: the
 * same on AArch64.)
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
	r.r[ISA_REG_RAX] = 0xfffffffffffffffeULL;
	r.r[ISA_REG_RBX] = 0xff00;
	r.r[ISA_REG_RCX] = 0x1234;
	r.r[ISA_REG_RBP] = (uint64_t)(uintptr_t)&mem64[2];
	r.r[ISA_REG_RDI] = (uint64_t)(uintptr_t)mem16;
	r.r[ISA_REG_RSI] = 1;
	r.r[ISA_REG_R8] = 0x8000;

	/* registers and their parts, extended by the descriptor's sign */
	WANT("-4@%eax", &r, -2);
	WANT("4@%eax", &r, 0xfffffffeULL);
	WANT("8@%rax", &r, 0xfffffffffffffffeULL);
	WANT("-8@%eax", &r, 0xfffffffeULL); /* a 32-bit register write zero-extends */
	WANT("1@%ch", &r, 0x12);
	WANT("-1@%bh", &r, -1);
	WANT("1@%cl", &r, 0x34);
	WANT("-2@%r8w", &r, -32768);
	WANT("2@%r8w", &r, 0x8000);
	WANT("%rsi", &r, 1); /* version 1 notes: no size, 8 bytes */
	/* constants */
	WANT("-4@$-7", &r, -7);
	WANT("4@$0x12345678", &r, 0x12345678);
	WANT("1@$300", &r, 300 & 0xff);
	/* memory */
	WANT("-8@-16(%rbp)", &r, -1);
	WANT("-8@-8(%rbp)", &r, 0x7fffffff00000002LL);
	WANT("-4@-8(%rbp)", &r, 2);
	WANT("-8@8(%rbp)", &r, -4);
	WANT("-8@(%rbp)", &r, 3);
	WANT("-2@(%rdi,%rsi,2)", &r, -2);
	WANT("-2@4(%rdi,%rsi,2)", &r, -4);
	WANT("2@2(%rdi,%rsi,2)", &r, 3);
	WANT("-8@object_var(%rip)", &r, 0x1122334455667788LL);
	WANT("-4@4+object_var(%rip)", &r, 0x11223344);
	WANT("-2@object_var+6(%rip)", &r, 0x1122);
	WANT("-8@object_var", &r, 0x1122334455667788LL);
	/* a bad address reads 0 */
	r.r[ISA_REG_RDX] = 16;
	WANT("8@(%rdx)", &r, 0);
	/* not understood: 0 */
	REFUSED("8@%fs:40", &r);
	REFUSED("8@16(%rip)", &r);
	REFUSED("8@nosuchsym(%rip)", &r);
	REFUSED("8@%xmm0", &r);
	REFUSED("8@(%rax,%rbx,3)", &r);
	REFUSED("8@", &r);
	/* where one descriptor of a note's list ends: at a space outside
	 * brackets (AArch64 writes `[sp, 8]`) */
	CHECK(linux_usdt_arg_len("-8@%rdi -4@%esi") == 7, "AT&T descriptor's length");
	CHECK(linux_usdt_arg_len("-8@[sp, 8] -4@[sp, 4]") == 10, "bracketed descriptor's length");
	CHECK(linux_usdt_arg_len("-4@[x0, #8]\t2@x1") == 11, "ends at a tab");
	CHECK(linux_usdt_arg_len("8@x19") == 5, "the last descriptor");
	/* the recipe and its type name */
	(void)eval("-2@%r8w", &r, &ok, &a);
	CHECK(a.ia_kind == INST_ARG_REG && a.ia_size == 2 && a.ia_signed && a.ia_regbytes == 2,
	      "-2@%%r8w recipe");
	CHECK(strcmp(linux_usdt_arg_type(&a), "int16_t") == 0, "type %s", linux_usdt_arg_type(&a));
	(void)eval("8@$1", &r, &ok, &a);
	CHECK(strcmp(linux_usdt_arg_type(&a), "uint64_t") == 0, "type %s", linux_usdt_arg_type(&a));
	TEST_DONE();
}
