/*
 * tests/isa/cfi/walk_real_stack.c: isa_cfi_walk on this process's own stack,
 * in a signal handler, through code built without frame pointers.
 *
 * Built with -O2 -fomit-frame-pointer -fasynchronous-unwind-tables, so a
 * frame-pointer walk is lost at the first frame.  main -> cfi_a (a large
 * local array) -> cfi_b (alloca) -> cfi_c, each noinline and using the
 * result of its call (no tail calls), so every frame has its own CFA
 * offset.  Three captures:
 *   spin:   cfi_c spins until a SIGPROF timer interrupts it inside cfi_c;
 *   raise:  cfi_c raises SIGUSR1, so the walk starts inside libc (raise,
 *           pthread_kill: Debian builds libc without frame pointers);
 *   thread: the spin capture in a second thread, whose stack ends in
 *           start_thread and clone3 rather than __libc_start_call_main.
 * (main and the thread reach cfi_a through run_spin, or main directly.)
 * The handler turns the ucontext into isa_regs_t, walks with the module
 * table built from dl_iterate_phdr beforehand, and takes glibc's
 * backtrace() (libgcc's unwinder) in the same place.  Outside the handler
 * the test checks: pcs[0] is the interrupted PC; the frames are cfi_c,
 * cfi_b, cfi_a in order, then their caller and __libc_start_call_main
 * (start_thread in the thread), by symbol tables (below); and every PC
 * equals backtrace()'s from the interrupted frame on, with the same depth.
 * Each walk is also run with pcs NULL (the count must agree) and with a
 * small max.  In the raise case the handler also walks from its own
 * registers (getcontext) through the signal trampoline, whose CFI is DWARF
 * expressions over the saved context, and must agree with backtrace()
 * taken beside it.  The same file runs statically linked under qemu-user
 * for the other ISAs (run_cross.sh).
 */
#include "cfi_test.h"

#include <alloca.h>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define MAXPCS 64

static cfi_modtab_t modtab;

/* What one capture recorded, in the handler. */
typedef struct capture {
	volatile sig_atomic_t done;
	uint64_t pcs[MAXPCS];
	int n;
	int n_count; /* with pcs NULL */
	int n_max3;  /* with max 3 */
	void *bt[MAXPCS];
	int nbt;
} capture_t;

static capture_t cap;
static capture_t nest;         /* from the handler itself, through the signal frame */
static volatile int spin_mode; /* 1: wait for the timer; 0: raise */
static uintptr_t c_lo, c_hi;   /* cfi_c's text */
static bool have_locals;       /* libc's local symbols are known */
static volatile uint64_t sink;

static void
take(const ucontext_t *uc)
{
	isa_regs_t regs;
	uint64_t small[3];

	cfi_ucontext_to_regs(uc, &regs);
	cap.n = isa_cfi_walk(&regs, modtab.mt_mods, modtab.mt_n, cap.pcs, MAXPCS);
	cap.n_count = isa_cfi_walk(&regs, modtab.mt_mods, modtab.mt_n, NULL, MAXPCS);
	cap.n_max3 = isa_cfi_walk(&regs, modtab.mt_mods, modtab.mt_n, small, 3);
	cap.nbt = backtrace(cap.bt, MAXPCS);
	cap.done = 1;
}

static void
on_prof(int sig, siginfo_t *si, void *ucv)
{
	const ucontext_t *uc = ucv;
	isa_regs_t regs;

	(void)sig;
	(void)si;
	if (cap.done)
		return;
	/* Only a tick that lands in cfi_c itself. */
	cfi_ucontext_to_regs(uc, &regs);
	if (isa_regs_pc(&regs) < c_lo || isa_regs_pc(&regs) >= c_hi)
		return;
	take(uc);
}

/*
 * A walk that starts in the handler (getcontext's registers) and climbs
 * through the kernel's signal frame: libc's sigreturn trampoline is a
 * signal frame ("S") whose CFI restores every register with DWARF
 * expressions from the saved context.  backtrace() is taken in the same
 * function, so from its caller on the two must agree.
 */
__attribute__((noinline)) void
take_here(void)
{
	ucontext_t uc;
	isa_regs_t regs;

	getcontext(&uc);
	cfi_ucontext_to_regs(&uc, &regs);
	nest.n = isa_cfi_walk(&regs, modtab.mt_mods, modtab.mt_n, nest.pcs, MAXPCS);
	nest.nbt = backtrace(nest.bt, MAXPCS);
	nest.done = 1;
}

void
on_usr1(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	take(ucv);
	take_here();
	sink++; /* no tail call: take_here keeps a caller */
}

__attribute__((noinline)) int
cfi_c(int n)
{
	volatile uint64_t local[3] = {1, 2, 3};

	if (spin_mode) {
		while (!cap.done)
			local[n % 3]++;
	} else {
		raise(SIGUSR1);
	}
	return (int)local[0] + n;
}

__attribute__((noinline)) int
cfi_b(int n)
{
	volatile char *p = alloca((size_t)n * 16 + 40);
	int r;

	p[0] = (char)n;
	r = cfi_c(n + 1);
	return r + p[0];
}

__attribute__((noinline)) int
cfi_a(int n)
{
	volatile char big[3000];
	int r;

	big[n] = 1;
	r = cfi_b(n + 7);
	sink += big[n];
	return r + big[2999 - n];
}

/*
 * Names for the check.  dladdr knows only dynamic symbols: not libc's
 * local functions (__libc_start_call_main, start_thread, clone3), and
 * nothing in a static executable (the cross-ISA runs under qemu).  So the
 * test reads .symtab itself: from /proc/self/exe for the executable, and
 * for a shared libc from its detached debug file (libc6-dbg), found by
 * build id.  Without that file libc's frames are checked by object only.
 */
#define NSYMS 16
static struct {
	const char *name;
	uintptr_t lo, hi;
} syms[NSYMS] = {{"cfi_c", 0, 0},
                 {"cfi_b", 0, 0},
                 {"cfi_a", 0, 0},
                 {"run_spin", 0, 0},
                 {"main", 0, 0},
                 {"thread_main", 0, 0},
                 {"on_usr1", 0, 0},
                 {"take_here", 0, 0},
                 {"__libc_start_call_main", 0, 0},
                 {"__libc_start_main", 0, 0},
                 {"start_thread", 0, 0},
                 {"clone3", 0, 0},
                 {"__pthread_kill_implementation", 0, 0},
                 {"__thread_start", 0, 0}};

static void
read_symtab(const char *path, uintptr_t base)
{
	const ElfW(Ehdr) * eh;
	const ElfW(Shdr) * sh;
	struct stat st;
	size_t n, k;
	int i, fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		return;
	if (fstat(fd, &st) == 0 &&
	    (eh = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED) {
		sh = (const void *)((const char *)eh + eh->e_shoff);
		for (i = 0; i < eh->e_shnum; i++) {
			const ElfW(Sym) *sym = (const void *)((const char *)eh + sh[i].sh_offset);
			const char *str = (const char *)eh + sh[sh[i].sh_link].sh_offset;

			if (sh[i].sh_type != SHT_SYMTAB)
				continue;
			for (n = 0; n < sh[i].sh_size / sizeof(*sym); n++)
				for (k = 0; k < NSYMS && syms[k].name != NULL; k++)
					if (sym[n].st_size != 0 && syms[k].lo == 0 &&
					    ELF64_ST_TYPE(sym[n].st_info) == STT_FUNC &&
					    strcmp(str + sym[n].st_name, syms[k].name) == 0) {
						syms[k].lo = base + sym[n].st_value;
						syms[k].hi = syms[k].lo + sym[n].st_size;
					}
		}
	}
	close(fd);
}

/* The detached debug file of a loaded object, from its build-id note. */
static bool
debug_file(const struct dl_phdr_info *info, char *path)
{
	const uint8_t *id = NULL;
	size_t idlen = 0, k;
	int i;

	for (i = 0; i < info->dlpi_phnum && id == NULL; i++) {
		const uint8_t *n, *end;

		if (info->dlpi_phdr[i].p_type != PT_NOTE)
			continue;
		n = (const uint8_t *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
		end = n + info->dlpi_phdr[i].p_memsz;
		while (n + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const void *)n;
			const uint8_t *desc = n + sizeof(*nh) + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(n + sizeof(*nh), "GNU", 4) == 0) {
				id = desc;
				idlen = nh->n_descsz;
				break;
			}
			n = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	if (id == NULL || idlen < 2)
		return false;
	path += sprintf(path, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (k = 1; k < idlen; k++)
		path += sprintf(path, "%02x", id[k]);
	strcpy(path, ".debug");
	return true;
}

static int
find_symbols(struct dl_phdr_info *info, size_t size, void *arg)
{
	char path[256];

	(void)size;
	(void)arg;
	if (info->dlpi_name[0] == '\0')
		read_symtab("/proc/self/exe", info->dlpi_addr);
	else if (strstr(info->dlpi_name, "libc.so") != NULL && debug_file(info, path))
		read_symtab(path, info->dlpi_addr);
	return 0;
}

/* Where function `name` starts (0 if unknown), and *hi its end. */
static uintptr_t
sym_range(const char *name, uintptr_t *hi)
{
	int k;

	for (k = 0; k < NSYMS && syms[k].name != NULL; k++)
		if (strcmp(syms[k].name, name) == 0) {
			if (hi != NULL)
				*hi = syms[k].hi;
			return syms[k].lo;
		}
	return 0;
}

/* The symbol a PC of the walk lies in: a return address (i > 0) names its
 * call, which may be the last instruction of a function. */
static const char *
name_of(uint64_t pc, int i)
{
	uintptr_t a = (uintptr_t)(i > 0 ? pc - 1 : pc);
	Dl_info di;
	int k;

	for (k = 0; k < NSYMS && syms[k].name != NULL; k++)
		if (a >= syms[k].lo && a < syms[k].hi)
			return syms[k].name;
	if (dladdr((void *)a, &di) == 0)
		return "?";
	if (di.dli_sname == NULL) /* a local function: which object */
		return di.dli_fname != NULL && strstr(di.dli_fname, "libc.so") ? "(libc)" : "?";
	return di.dli_sname;
}

static void
dump(const char *what)
{
	int i;

	fprintf(stderr, "%s: isa_cfi_walk %d frames, backtrace %d\n", what, cap.n, cap.nbt);
	for (i = 0; i < cap.n; i++)
		fprintf(stderr, "  cfi[%d] %#llx %s\n", i, (unsigned long long)cap.pcs[i],
		        name_of(cap.pcs[i], i));
	for (i = 0; i < cap.nbt; i++)
		fprintf(stderr, "  bt[%d] %p %s\n", i, cap.bt[i], name_of((uintptr_t)cap.bt[i], 1));
}

/*
 * Check one capture: cfi_c, cfi_b, cfi_a and `outer` in order, then
 * `last` somewhere after; the same PCs as backtrace() from the interrupted
 * frame on.
 */
static void
check_capture(const char *what, const char *outer, const char *last)
{
	static const char *const chain[] = {"cfi_c", "cfi_b", "cfi_a"};
	int i, k, start = -1, bti = -1;
	bool seen_last = false;

	CHECK(cap.done, "%s: no capture", what);
	CHECK(cap.n >= 5 && cap.n < MAXPCS, "%s: %d frames", what, cap.n);
	CHECK(cap.n_count == cap.n, "%s: counting walk %d != %d", what, cap.n_count, cap.n);
	CHECK(cap.n_max3 == (cap.n < 3 ? cap.n : 3), "%s: max 3 gave %d", what, cap.n_max3);
	for (i = 0; i < cap.n && start < 0; i++)
		if (strcmp(name_of(cap.pcs[i], i), "cfi_c") == 0)
			start = i;
	CHECK(start >= 0, "%s: cfi_c not in the walk", what);
	if (start >= 0) {
		for (k = 0; k < 3; k++)
			CHECK(start + k < cap.n &&
			          strcmp(name_of(cap.pcs[start + k], start + k), chain[k]) == 0,
			      "%s: frame %d is %s, not %s", what, start + k,
			      start + k < cap.n ? name_of(cap.pcs[start + k], start + k) : "-",
			      chain[k]);
		CHECK(start + 3 < cap.n &&
		          strcmp(name_of(cap.pcs[start + 3], start + 3), outer) == 0,
		      "%s: frame %d is not %s", what, start + 3, outer);
		/* Without libc's debug symbols: a frame inside libc. */
		if (!have_locals)
			last = "(libc)";
		for (i = start + 4; i < cap.n; i++)
			if (strcmp(name_of(cap.pcs[i], i), last) == 0)
				seen_last = true;
		CHECK(seen_last, "%s: %s not reached", what, last);
	}
	/* backtrace(): [handler frames, the signal trampoline, then ours] */
	for (i = 0; i < cap.nbt && bti < 0; i++)
		if ((uint64_t)(uintptr_t)cap.bt[i] == cap.pcs[0])
			bti = i;
	CHECK(bti >= 0, "%s: the interrupted PC is not in backtrace()", what);
	if (bti >= 0) {
		/* RISC-V glibc's thread entry, __thread_start, is the outermost
		 * frame (its CFI marks ra undefined, as x86's clone3 does);
		 * the walk reports it as it reports clone3, libgcc's
		 * backtrace() on RISC-V stops below it. */
		if (cap.n == cap.nbt - bti + 1 &&
		    strcmp(name_of(cap.pcs[cap.n - 1], cap.n - 1), "__thread_start") == 0)
			printf("note: %s: the walk also reports __thread_start\n", what);
		else
			CHECK(cap.nbt - bti == cap.n,
			      "%s: backtrace has %d frames from there, the walk %d", what,
			      cap.nbt - bti, cap.n);
		for (k = 0; k < cap.n && bti + k < cap.nbt; k++)
			CHECK((uint64_t)(uintptr_t)cap.bt[bti + k] == cap.pcs[k],
			      "%s: frame %d: %#llx, backtrace %p", what, k,
			      (unsigned long long)cap.pcs[k], cap.bt[bti + k]);
	}
	if (cfi_test_failures != 0)
		dump(what);
}

static bool
in_modules(uintptr_t pc)
{
	size_t i;

	for (i = 0; i < modtab.mt_n; i++)
		if (pc >= modtab.mt_mods[i].cm_lo && pc < modtab.mt_mods[i].cm_hi)
			return true;
	return false;
}

/* The walk from inside the handler: on_usr1, the signal trampoline, then
 * the interrupted stack (raise's, then cfi_c ...): equal to backtrace()
 * from take_here's caller on. */
static void
check_nested(void)
{
	int k, i = 0;
	static const char *const want[] = {"on_usr1", "cfi_c", "cfi_b", "cfi_a", "main"};

	CHECK(nest.done, "nested: no capture");
	/* qemu-user's signal trampoline lies in no object and has no CFI: the
	 * walk can only guess past it by frame pointer. */
	for (k = 0; k < nest.nbt; k++)
		if (!in_modules((uintptr_t)nest.bt[k])) {
			printf("note: backtrace() frame %d (%p) is in no object (a signal "
			       "trampoline without CFI): nested walk not compared\n",
			       k, nest.bt[k]);
			return;
		}
	CHECK(nest.n == nest.nbt, "nested: the walk has %d frames, backtrace %d", nest.n, nest.nbt);
	for (k = 1; k < nest.n && k < nest.nbt; k++)
		CHECK((uint64_t)(uintptr_t)nest.bt[k] == nest.pcs[k],
		      "nested: frame %d: %#llx, backtrace %p", k, (unsigned long long)nest.pcs[k],
		      nest.bt[k]);
	for (k = 0; k < nest.n && i < 5; k++)
		if (strcmp(name_of(nest.pcs[k], k), want[i]) == 0)
			i++;
	CHECK(i == 5, "nested: %s not found in order", i < 5 ? want[i] : "");
	if (cfi_test_failures != 0) {
		cap = nest;
		dump("nested");
	}
}

__attribute__((noinline)) void
run_spin(void)
{
	struct itimerval it = {{0, 2000}, {0, 2000}};
	struct itimerval off = {{0, 0}, {0, 0}};

	memset(&cap, 0, sizeof(cap));
	spin_mode = 1;
	setitimer(ITIMER_PROF, &it, NULL);
	sink += (uint64_t)cfi_a(5);
	setitimer(ITIMER_PROF, &off, NULL);
}

void *
thread_main(void *arg)
{
	(void)arg;
	run_spin();
	return NULL;
}

int
main(void)
{
	struct sigaction sa;
	void *warm[4];
	stack_t ss;
	pthread_t t;

	cfi_install_nofault_handler();
	dl_iterate_phdr(find_symbols, NULL);
	/* cfi_c's extent, for the handler's "did the tick land in cfi_c". */
	c_lo = sym_range("cfi_c", &c_hi);
	if (c_lo == 0) {
		fprintf(stderr, "no symbol table in /proc/self/exe\n");
		return 2;
	}
	have_locals = sym_range("__libc_start_call_main", NULL) != 0;
	if (!have_locals)
		printf("note: no debug symbols for libc (libc6-dbg): libc frames checked by "
		       "object only\n");
	/* backtrace() loads libgcc_s on first use: not in a handler. */
	backtrace(warm, 4);
	cfi_modules(&modtab);
	CHECK(modtab.mt_n >= 1, "%zu modules", modtab.mt_n);

	/* Handlers run on a signal stack, as a traced process's would. */
	ss.ss_sp = malloc(256 * 1024);
	ss.ss_size = 256 * 1024;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_prof;
	sigaction(SIGPROF, &sa, NULL);
	sa.sa_sigaction = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);

	run_spin();
	check_capture("spin", "run_spin", "__libc_start_call_main");
	CHECK(cap.pcs[0] >= c_lo && cap.pcs[0] < c_hi, "spin: pcs[0] %#llx not in cfi_c",
	      (unsigned long long)cap.pcs[0]);

	memset(&cap, 0, sizeof(cap));
	spin_mode = 0;
	sink += (uint64_t)cfi_a(9);
	check_capture("raise", "main", "__libc_start_call_main");
	check_nested();

	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);
	check_capture("thread", "run_spin", "start_thread");

	CHECK(cfi_test_nofaults == 0, "%d nofault faults on a good stack", (int)cfi_test_nofaults);
	TEST_DONE();
}
