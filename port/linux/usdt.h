/*
 * port/linux/usdt.h: statically defined probes (USDT) of traced processes,
 * what usdt.c, usdt_dof.c and the per-ISA operand parsers
 * (usdt_operand_<isa>.c, chosen by CMake) share.  Consumer side, never
 * probe context.
 */
#ifndef DTRACE_PORT_LINUX_USDT_H
#define DTRACE_PORT_LINUX_USDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inst.h"
#include "linux_impl.h"

/* A symbol of the object the descriptor came from, by name (not
 * NUL-terminated: len bytes), as its address in the traced process; 0 or
 * -1 if there is no such symbol. */
typedef int (*linux_usdt_sym_fn_t)(const char *name, size_t len, uint64_t *addr, void *arg);

/*
 * One operand of a SystemTap argument descriptor, in the assembler syntax
 * of this ISA, as the compiler printed it into the note (x86_64: `%eax`,
 * `$-5`, `-16(%rbp)`, `8(%rdi,%rax,8)`, `sym+4(%rip)`): fills a's kind and
 * location (its size and sign are the caller's).  Returns 0, or -1 when the
 * operand is not understood (a stays INST_ARG_NONE).
 */
int linux_usdt_operand(const char *op, size_t len, inst_arg_t *a, linux_usdt_sym_fn_t sym,
                       void *arg);

/*
 * A whole descriptor, `[-]N@OPERAND` (N the argument's bytes, `-` for
 * signed), or a bare operand (SystemTap's version 1 notes: 8 bytes,
 * signed).  Returns 0, or -1 with a left INST_ARG_NONE of the size given.
 */
int linux_usdt_arg_parse(const char *desc, size_t len, inst_arg_t *a, linux_usdt_sym_fn_t sym,
                         void *arg);

/* The length of the descriptor at the start of `s` (a note's list of
 * them): it ends at a space or tab outside brackets, since AArch64's
 * operands hold one inside (`-8@[sp, 8]`). */
size_t linux_usdt_arg_len(const char *s);

/* The C type name args[] and `dtrace -lv` give an argument of this size
 * and sign ("int32_t", "uint64_t"). */
const char *linux_usdt_arg_type(const inst_arg_t *a);

/* ---- Providers of one traced process (usdt.c; called by proc.c) ------- */

/* The process's objects were read for the first time (after the
 * handshake) or changed (the agent's module message): make the providers
 * and probes of objects that appeared, retire those of objects that went,
 * and match the enablings already made. */
void linux_usdt_scan(linux_proc_t *p);
/* The process exited or exec'd: its memory is gone, nothing is written. */
void linux_usdt_process_gone(linux_proc_t *p);
/* Host teardown (every probe disabled): unregister its providers and free
 * what the process's block points to.  Returns DTRACE_EBUSY if a provider
 * refuses. */
int linux_usdt_release(linux_proc_t *p);

/* ---- One probe site, from a SystemTap note or a DOF image --------------- */

/* One probe site an object describes, with its native and translated
 * argument types (the mapping: xlated argument i is native map[i];
 * ud_native is indexed by native argument, ud_xlate by xlated one, NULL
 * where it is the native type). */
typedef struct linux_usdt_desc {
	const char *ud_prov; /* provider name, without the pid */
	const char *ud_func; /* the function the site is in */
	const char *ud_name; /* probe name */
	uintptr_t ud_addr;   /* the site, in the process */
	uintptr_t ud_sem;    /* its semaphore in the process, 0 if none */
	bool ud_isenabled;   /* an is-enabled site */
	inst_args_t ud_args; /* where its arguments are (by xlated index) */
	const char *ud_native[INST_ARGS_MAX];
	const char *ud_xlate[INST_ARGS_MAX];
	uint8_t ud_map[INST_ARGS_MAX];
	int ud_nxargs;
	const dtrace_pattr_t *ud_attr; /* the provider's stability, NULL: SystemTap's */
} linux_usdt_desc_t;

typedef void (*linux_usdt_desc_fn_t)(const linux_usdt_desc_t *d, void *arg);

/* DTrace's own USDT (usdt_dof.c): the DOF images dtrace -G put in an
 * object, its `.SUNW_dof` section at addr (size bytes) in the process,
 * read there (relocated) and checked; fn gets every site that lies in the
 * object's text [lo, hi).  0 or an error. */
int linux_usdt_dof_read(linux_proc_t *p, uintptr_t addr, size_t size, uintptr_t lo, uintptr_t hi,
			linux_usdt_desc_fn_t fn, void *arg);

#endif
