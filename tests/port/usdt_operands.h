/*
 * tests/port/usdt_operands.h: what the ISAs' SystemTap operand tests
 * share: a symbol resolver that knows `object_var`, and WANT/REFUSED,
 * which parse a descriptor with linux_usdt_arg_parse() and evaluate the
 * recipe with the engine's probe-context inst_arg_value() against a
 * register image.
 */
#ifndef DTRACE_TESTS_PORT_USDT_OPERANDS_H
#define DTRACE_TESTS_PORT_USDT_OPERANDS_H

#include <stdint.h>
#include <string.h>

#include "port_test.h"
#include "usdt.h"

static int64_t object_var = 0x1122334455667788LL;

/* Memory the descriptors' memory operands read through base registers. */
static int64_t mem64[4] = {-1, 0x7fffffff00000002LL, 3, -4};
static int16_t mem16[4] = {1, -2, 3, -4};

/* A register image of zeros, with the trap handlers that make a bad
 * address read 0 installed. */
static void
regs_setup(isa_regs_t *r)
{
	CHECK(linux_trap_install() == 0, "trap handlers");
	memset(r, 0, sizeof(*r));
}

static int
resolve(const char *name, size_t len, uint64_t *addr, void *arg)
{
	(void)arg;
	if (len == 10 && memcmp(name, "object_var", 10) == 0) {
		*addr = (uint64_t)(uintptr_t)&object_var;
		return 0;
	}
	return -1;
}

static uint64_t
eval(const char *desc, const isa_regs_t *regs, int *parsed, inst_arg_t *out)
{
	inst_arg_t a;

	*parsed = linux_usdt_arg_parse(desc, strlen(desc), &a, resolve, NULL);
	if (out != NULL)
		*out = a;
	return inst_arg_value(&a, regs);
}

#define WANT(desc, regs, value)                                                                    \
	do {                                                                                       \
		int ok_;                                                                           \
		uint64_t v_ = eval(desc, regs, &ok_, NULL);                                        \
		CHECK(ok_ == 0, "%s not parsed", desc);                                            \
		CHECK(v_ == (uint64_t)(value), "%s: 0x%llx, want 0x%llx", desc,                    \
		      (unsigned long long)v_, (unsigned long long)(uint64_t)(value));              \
	} while (0)

#define REFUSED(desc, regs)                                                                        \
	do {                                                                                       \
		int ok_;                                                                           \
		uint64_t v_ = eval(desc, regs, &ok_, NULL);                                        \
		CHECK(ok_ != 0 && v_ == 0, "%s: parsed %d, value 0x%llx", desc, ok_,               \
		      (unsigned long long)v_);                                                     \
	} while (0)

#endif
