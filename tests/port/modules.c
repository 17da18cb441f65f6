/*
 * tests/port/modules.c: module enumeration finds the main program and
 * libc with their text, and libc's symbols include getpid at the address
 * the dynamic linker resolves; the vDSO's symbols (no file: read from the
 * mapped image) lie in its text.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "linux_impl.h"
#include "port_test.h"

int main(void);

static int found_main, found_libc, found_getpid, found_self_main, nsyms;
static int found_vdso, vdso_syms, vdso_in_text;
static uintptr_t vdso_text, vdso_textsize;
static uintptr_t getpid_addr;

static int
on_symbol(const char *name, uintptr_t addr, size_t size, void *arg)
{
	(void)size;
	nsyms++;
	if (arg == (void *)1 && strcmp(name, "getpid") == 0 && addr == getpid_addr)
		found_getpid = 1;
	if (arg == (void *)2 && strcmp(name, "main") == 0 && addr == (uintptr_t)main)
		found_self_main = 1;
	if (arg == (void *)3) {
		vdso_syms++;
		if (strstr(name, "clock_gettime") != NULL && addr >= vdso_text &&
		    addr < vdso_text + vdso_textsize)
			vdso_in_text = 1;
	}
	return 0;
}

static int
on_module(const dtrace_port_module_t *m, void *arg)
{
	(void)arg;
	if (strcmp(m->dpm_name, "port_modules") == 0) {
		found_main = (uintptr_t)main >= m->dpm_text &&
			     (uintptr_t)main < m->dpm_text + m->dpm_textsize;
		dtrace_port_symbol_iter(m, on_symbol, (void *)2);
	}
	if (strcmp(m->dpm_name, "libc.so.6") == 0) {
		found_libc = m->dpm_path != NULL && getpid_addr >= m->dpm_text &&
			     getpid_addr < m->dpm_text + m->dpm_textsize;
		dtrace_port_symbol_iter(m, on_symbol, (void *)1);
	}
	if (strncmp(m->dpm_name, "linux-vdso", 10) == 0) {
		found_vdso = 1;
		vdso_text = m->dpm_text;
		vdso_textsize = m->dpm_textsize;
		CHECK(dtrace_port_symbol_iter(m, on_symbol, (void *)3) == 0, "vDSO symbols");
	}
	return 0;
}

static int
stop_at_first(const dtrace_port_module_t *m, void *arg)
{
	(void)m;
	(*(int *)arg)++;
	return 7;
}

int
main(void)
{
	int n = 0;

	getpid_addr = (uintptr_t)dlsym(RTLD_DEFAULT, "getpid");
	CHECK(getpid_addr != 0, "dlsym getpid");
	CHECK(dtrace_port_module_iter(NULL, on_module, NULL) == 0, "module_iter");
	CHECK(found_main, "main program found, main() in its text");
	CHECK(found_libc, "libc.so.6 found with getpid in its text");
	CHECK(found_getpid, "libc's getpid symbol at the resolved address");
	CHECK(found_self_main, "main() in the program's .symtab");
	CHECK(nsyms > 100, "%d symbols", nsyms);
	if (getauxval(AT_SYSINFO_EHDR) != 0) {
		CHECK(found_vdso, "the vDSO is a module");
		CHECK(vdso_syms > 0 && vdso_in_text, "vDSO clock_gettime in its text (%d symbols)",
		      vdso_syms);
	} else {
		printf("no vDSO: its symbols not checked\n");
	}
	CHECK(dtrace_port_module_iter(NULL, stop_at_first, &n) == 7 && n == 1,
	      "non-zero return stops the walk");
	TEST_DONE();
}
