/*
 * port/linux/usdt_operand_aarch64.c: SystemTap argument operands as the
 * compiler prints them on AArch64: `x0`/`w0` (a register or its low
 * half), `sp`, `[x1]`, `[x29, -8]`, `[sp, 16]`, and constants (`5`,
 * `#5`, `-1`).  Anything else is refused: the argument reads 0.
 * Consumer side, never probe context.
 */
#include <stdlib.h>
#include <string.h>

#include "usdt.h"

static bool
a64_number(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;

	if (len > 0 && s[0] == '#') {
		s++;
		len--;
	}
	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*v = buf[0] == '-' ? (int64_t)strtoll(buf, &end, 0) : (int64_t)strtoull(buf, &end, 0);
	return *end == '\0';
}

/* x0..x30 (8 bytes), w0..w30 (4), sp/xzr-free: the register and width. */
static bool
a64_reg(const char *s, size_t len, uint8_t *reg, uint8_t *bytes)
{
	int64_t n;

	if (len == 2 && memcmp(s, "sp", 2) == 0) {
		*reg = ISA_REG_SPREG;
		*bytes = 8;
		return true;
	}
	if (len < 2 || (s[0] != 'x' && s[0] != 'w') || s[1] < '0' || s[1] > '9' ||
	    !a64_number(s + 1, len - 1, &n) || n < 0 || n > 30)
		return false;
	*reg = (uint8_t)(ISA_REG_X0 + n);
	*bytes = s[0] == 'x' ? 8 : 4;
	return true;
}

static void
trim(const char **s, size_t *len)
{
	while (*len > 0 && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
}

int
linux_usdt_operand(const char *op, size_t len, inst_arg_t *a, linux_usdt_sym_fn_t sym, void *arg)
{
	const char *comma;
	uint8_t reg, bytes;
	int64_t v = 0;

	(void)sym;
	(void)arg;
	a->ia_kind = INST_ARG_NONE;
	trim(&op, &len);
	if (len == 0)
		return -1;
	if (a64_reg(op, len, &reg, &bytes)) {
		a->ia_kind = INST_ARG_REG;
		a->ia_base = reg;
		a->ia_regbytes = bytes;
		a->ia_shift = 0;
		return 0;
	}
	if (op[0] != '[') {
		if (!a64_number(op, len, &v))
			return -1;
		a->ia_kind = INST_ARG_CONST;
		a->ia_disp = v;
		return 0;
	}
	if (op[len - 1] != ']')
		return -1;
	op++;
	len -= 2;
	comma = memchr(op, ',', len);
	{
		const char *r = op;
		size_t rl = comma != NULL ? (size_t)(comma - op) : len;

		trim(&r, &rl);
		if (!a64_reg(r, rl, &reg, &bytes) || bytes != 8)
			return -1;
	}
	if (comma != NULL) {
		const char *d = comma + 1;
		size_t dl = len - (size_t)(comma + 1 - op);

		trim(&d, &dl);
		if (!a64_number(d, dl, &v))
			return -1;
	}
	a->ia_kind = INST_ARG_MEM;
	a->ia_base = reg;
	a->ia_index = INST_ARG_NOREG;
	a->ia_scale = 1;
	a->ia_disp = v;
	return 0;
}
