/*
 * port/linux/usdt_operand_x86_64.c: SystemTap argument operands in x86_64
 * AT&T syntax, as the compiler prints an asm operand into the note.
 *
 *   %reg                           a register or the part of one named
 *                                  (%rax, %eax, %ax, %al, %ah, %r8d, %sil ...)
 *   $imm                           a constant (decimal, 0x hex, signed)
 *   disp(%base,%index,scale)       memory; each part may be missing
 *   sym+disp(%rip), disp+sym(%rip) memory at a symbol of the object
 *
 *   sym, sym(%reg), 1234          memory at an absolute address (+ registers)
 *
 * A %rip-relative operand without a symbol, a segment override (%fs:...)
 * and anything else is refused: the argument then reads 0.
 * Consumer side, never probe context.
 */
#include <stdlib.h>
#include <string.h>

#include "usdt.h"

typedef struct x86_regname {
	const char *xr_name;
	uint8_t xr_reg;   /* isa_regs_t index */
	uint8_t xr_bytes; /* width of the part named */
	uint8_t xr_shift; /* its lowest bit */
} x86_regname_t;

/* clang-format off */
#define X86_QUAD(q, d, w, b, r)                                                                    \
	{q, r, 8, 0}, {d, r, 4, 0}, {w, r, 2, 0}, {b, r, 1, 0}

static const x86_regname_t x86_regnames[] = {
	X86_QUAD("rax", "eax", "ax", "al", ISA_REG_RAX),
	X86_QUAD("rbx", "ebx", "bx", "bl", ISA_REG_RBX),
	X86_QUAD("rcx", "ecx", "cx", "cl", ISA_REG_RCX),
	X86_QUAD("rdx", "edx", "dx", "dl", ISA_REG_RDX),
	X86_QUAD("rsi", "esi", "si", "sil", ISA_REG_RSI),
	X86_QUAD("rdi", "edi", "di", "dil", ISA_REG_RDI),
	X86_QUAD("rbp", "ebp", "bp", "bpl", ISA_REG_RBP),
	X86_QUAD("rsp", "esp", "sp", "spl", ISA_REG_RSP),
	X86_QUAD("r8", "r8d", "r8w", "r8b", ISA_REG_R8),
	X86_QUAD("r9", "r9d", "r9w", "r9b", ISA_REG_R9),
	X86_QUAD("r10", "r10d", "r10w", "r10b", ISA_REG_R10),
	X86_QUAD("r11", "r11d", "r11w", "r11b", ISA_REG_R11),
	X86_QUAD("r12", "r12d", "r12w", "r12b", ISA_REG_R12),
	X86_QUAD("r13", "r13d", "r13w", "r13b", ISA_REG_R13),
	X86_QUAD("r14", "r14d", "r14w", "r14b", ISA_REG_R14),
	X86_QUAD("r15", "r15d", "r15w", "r15b", ISA_REG_R15),
	{"ah", ISA_REG_RAX, 1, 8},
	{"bh", ISA_REG_RBX, 1, 8},
	{"ch", ISA_REG_RCX, 1, 8},
	{"dh", ISA_REG_RDX, 1, 8},
	{"rip", ISA_REG_RIP, 8, 0},
};
/* clang-format on */

/* "%name" at s (len bytes, the % included). */
static const x86_regname_t *
x86_reg(const char *s, size_t len)
{
	if (len < 2 || s[0] != '%')
		return NULL;
	for (size_t i = 0; i < sizeof(x86_regnames) / sizeof(x86_regnames[0]); i++)
		if (strlen(x86_regnames[i].xr_name) == len - 1 &&
		    memcmp(x86_regnames[i].xr_name, s + 1, len - 1) == 0)
			return &x86_regnames[i];
	return NULL;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* A whole number (decimal, 0x hex, octal with a leading 0) spanning s. */
static bool
x86_number(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*v = (int64_t)strtoull(buf, &end, 0);
	if (buf[0] == '-' && *end == '\0')
		*v = (int64_t)strtoll(buf, &end, 0);
	return *end == '\0' && end != buf;
}

/*
 * A displacement: terms joined by + and -, numbers or (at most one) symbol
 * name.  *hassym says whether a symbol was among them.
 */
static int
x86_disp(const char *s, size_t len, int64_t *disp, bool *hassym, linux_usdt_sym_fn_t sym, void *arg)
{
	size_t i = 0, j;
	int64_t total = 0, v;
	uint64_t addr;
	int sign = 1;

	*hassym = false;
	while (i < len) {
		if (s[i] == '+' || s[i] == '-') {
			sign = s[i] == '-' ? -sign : sign;
			i++;
			continue;
		}
		for (j = i; j < len && s[j] != '+' && s[j] != '-'; j++)
			continue;
		if (x86_number(s + i, j - i, &v)) {
			total += sign * v;
		} else {
			if (*hassym || sym == NULL || sym(s + i, j - i, &addr, arg) != 0 ||
			    sign < 0)
				return -1;
			*hassym = true;
			total += (int64_t)addr;
		}
		sign = 1;
		i = j;
	}
	*disp = total;
	return 0;
}

int
linux_usdt_operand(const char *op, size_t len, inst_arg_t *a, linux_usdt_sym_fn_t sym, void *arg)
{
	const x86_regname_t *r, *idx;
	const char *open, *close, *c1, *c2;
	int64_t v, scale = 1;
	bool hassym;

	a->ia_kind = INST_ARG_NONE;
	while (len > 0 && is_space(op[0])) {
		op++;
		len--;
	}
	while (len > 0 && is_space(op[len - 1]))
		len--;
	if (len == 0 || memchr(op, ':', len) != NULL)
		return -1;
	if (op[0] == '$') {
		if (!x86_number(op + 1, len - 1, &v))
			return -1;
		a->ia_kind = INST_ARG_CONST;
		a->ia_disp = v;
		return 0;
	}
	if (op[0] == '%') {
		if ((r = x86_reg(op, len)) == NULL || r->xr_reg == ISA_REG_RIP)
			return -1;
		a->ia_kind = INST_ARG_REG;
		a->ia_base = r->xr_reg;
		a->ia_regbytes = r->xr_bytes;
		a->ia_shift = r->xr_shift;
		return 0;
	}
	/* memory: disp(base,index,scale), or an absolute disp alone */
	a->ia_base = a->ia_index = INST_ARG_NOREG;
	a->ia_scale = 1;
	if ((open = memchr(op, '(', len)) == NULL) {
		if (x86_disp(op, len, &a->ia_disp, &hassym, sym, arg) != 0)
			return -1;
		a->ia_kind = INST_ARG_MEM;
		return 0;
	}
	if (op[len - 1] != ')')
		return -1;
	close = op + len - 1;
	c1 = memchr(open, ',', (size_t)(close - open));
	c2 = c1 != NULL ? memchr(c1 + 1, ',', (size_t)(close - c1 - 1)) : NULL;
	if (c1 != open + 1) {
		if ((r = x86_reg(open + 1, (size_t)((c1 != NULL ? c1 : close) - open - 1))) == NULL)
			return -1;
		a->ia_base = r->xr_reg;
	}
	if (c1 != NULL) {
		if ((idx = x86_reg(c1 + 1, (size_t)((c2 != NULL ? c2 : close) - c1 - 1))) == NULL ||
		    idx->xr_reg == ISA_REG_RIP)
			return -1;
		a->ia_index = idx->xr_reg;
		if (c2 != NULL && (!x86_number(c2 + 1, (size_t)(close - c2 - 1), &scale) ||
		                   (scale != 1 && scale != 2 && scale != 4 && scale != 8)))
			return -1;
		a->ia_scale = (uint8_t)scale;
	}
	if (x86_disp(op, (size_t)(open - op), &a->ia_disp, &hassym, sym, arg) != 0)
		return -1;
	if (a->ia_base == ISA_REG_RIP) {
		/* The assembler resolved sym(%rip) against the instruction it
		 * was an operand of; the note keeps only the text, so the
		 * symbol's address is the whole of it. */
		if (!hassym || a->ia_index != INST_ARG_NOREG)
			return -1;
		a->ia_base = INST_ARG_NOREG;
	}
	a->ia_kind = INST_ARG_MEM;
	return 0;
}
