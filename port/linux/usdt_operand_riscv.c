/*
 * port/linux/usdt_operand_riscv.c: SystemTap argument operands as the
 * compiler prints them on RISC-V: ABI register names (`a0`, `s1`, `sp`,
 * `ra`, `t3`, `zero`, `x10`), memory as `disp(reg)`, and constants.
 * Anything else is refused: the argument reads 0.  Consumer side, never
 * probe context.
 */
#include <stdlib.h>
#include <string.h>

#include "usdt.h"

static const char *const rv_abi[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static bool
rv_number(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*v = buf[0] == '-' ? (int64_t)strtoll(buf, &end, 0) : (int64_t)strtoull(buf, &end, 0);
	return *end == '\0';
}

static bool
rv_reg(const char *s, size_t len, uint8_t *reg)
{
	int64_t n;

	if (len == 2 && memcmp(s, "fp", 2) == 0) {
		*reg = ISA_REG_S0;
		return true;
	}
	for (unsigned i = 0; i < 32; i++)
		if (strlen(rv_abi[i]) == len && memcmp(rv_abi[i], s, len) == 0) {
			*reg = (uint8_t)i;
			return true;
		}
	if (len >= 2 && s[0] == 'x' && rv_number(s + 1, len - 1, &n) && n >= 0 && n < 32) {
		*reg = (uint8_t)n;
		return true;
	}
	return false;
}

int
linux_usdt_operand(const char *op, size_t len, inst_arg_t *a, linux_usdt_sym_fn_t sym, void *arg)
{
	const char *open;
	uint8_t reg;
	int64_t v = 0;

	(void)sym;
	(void)arg;
	a->ia_kind = INST_ARG_NONE;
	while (len > 0 && (op[0] == ' ' || op[0] == '\t')) {
		op++;
		len--;
	}
	while (len > 0 && (op[len - 1] == ' ' || op[len - 1] == '\t'))
		len--;
	if (len == 0)
		return -1;
	if (rv_reg(op, len, &reg)) {
		a->ia_kind = INST_ARG_REG;
		a->ia_base = reg;
		a->ia_regbytes = 8;
		a->ia_shift = 0;
		return 0;
	}
	if ((open = memchr(op, '(', len)) == NULL) {
		if (!rv_number(op, len, &v))
			return -1;
		a->ia_kind = INST_ARG_CONST;
		a->ia_disp = v;
		return 0;
	}
	if (op[len - 1] != ')' || !rv_reg(open + 1, (size_t)(op + len - 1 - open - 1), &reg) ||
	    (open != op && !rv_number(op, (size_t)(open - op), &v)))
		return -1;
	a->ia_kind = INST_ARG_MEM;
	a->ia_base = reg;
	a->ia_index = INST_ARG_NOREG;
	a->ia_scale = 1;
	a->ia_disp = v;
	return 0;
}
