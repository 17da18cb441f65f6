/*
 * tests/isa/cfi/python_sampler.c: a preloaded sampler that checks
 * isa_cfi_walk against libgcc's unwinder inside a real program.
 *
 * LD_PRELOAD it into Debian's python3.11 (built, like its libc, without
 * frame pointers): a SIGPROF timer interrupts the interpreter every
 * millisecond, and the handler walks the interrupted stack with
 * isa_cfi_walk (module table built at load from dl_iterate_phdr) and with
 * glibc's backtrace() in the same place.  From the interrupted PC on the
 * two must be identical, PC for PC and in depth.  A sample whose stack
 * passes through an object loaded after start-up (not in the table) is
 * skipped and counted.  At exit the sampler prints its counts and exits
 * with status 1 if any sample differed or too few were compared.
 * run_python_sampler.sh drives it.
 */
#include "cfi_test.h"

#include <execinfo.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAXPCS 128
#define MIN_COMPARED 50

static cfi_modtab_t modtab;
static volatile sig_atomic_t busy;
static unsigned long samples, compared, differed, skipped, unmatched, deepest;
static uint64_t walk_ns, walk_ns_max; /* isa_cfi_walk's cost */
static uint64_t bad_pcs[MAXPCS];
static void *bad_bt[MAXPCS];
static int bad_n, bad_nbt;

static bool
known(uint64_t pc)
{
	size_t i;

	for (i = 0; i < modtab.mt_n; i++)
		if (pc >= modtab.mt_mods[i].cm_lo && pc < modtab.mt_mods[i].cm_hi)
			return true;
	return false;
}

static void
on_prof(int sig, siginfo_t *si, void *ucv)
{
	uint64_t pcs[MAXPCS];
	void *bt[MAXPCS];
	isa_regs_t regs;
	struct timespec t0, t1;
	uint64_t dt;
	int n, nbt, j, k;
	bool same;

	(void)sig;
	(void)si;
	if (busy)
		return;
	busy = 1;
	samples++;
	cfi_ucontext_to_regs(ucv, &regs);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = isa_cfi_walk(&regs, modtab.mt_mods, modtab.mt_n, pcs, MAXPCS);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	dt = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
	walk_ns += dt;
	if (dt > walk_ns_max)
		walk_ns_max = dt;
	nbt = backtrace(bt, MAXPCS);
	for (j = 0; j < nbt && (uint64_t)(uintptr_t)bt[j] != pcs[0]; j++)
		;
	if (j == nbt) {
		unmatched++; /* libgcc did not get through the signal frame */
		busy = 0;
		return;
	}
	for (k = j; k < nbt; k++)
		if (!known((uint64_t)(uintptr_t)bt[k])) {
			skipped++;
			busy = 0;
			return;
		}
	compared++;
	same = nbt - j == n && nbt < MAXPCS;
	for (k = 0; same && k < n; k++)
		same = (uint64_t)(uintptr_t)bt[j + k] == pcs[k];
	if ((unsigned long)n > deepest)
		deepest = (unsigned long)n;
	if (!same && differed++ == 0) {
		memcpy(bad_pcs, pcs, sizeof(pcs));
		memcpy(bad_bt, bt + j, sizeof(bt[0]) * (size_t)(nbt - j));
		bad_n = n;
		bad_nbt = nbt - j;
	}
	busy = 0;
}

__attribute__((constructor)) static void
sampler_start(void)
{
	struct itimerval it = {{0, 1000}, {0, 1000}};
	struct sigaction sa;
	void *warm[4];

	cfi_install_nofault_handler();
	cfi_modules(&modtab);
	backtrace(warm, 4); /* libgcc_s is loaded now, not in the handler */
	cfi_modules(&modtab);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_prof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPROF, &sa, NULL);
	setitimer(ITIMER_PROF, &it, NULL);
}

__attribute__((destructor)) static void
sampler_stop(void)
{
	struct itimerval off = {{0, 0}, {0, 0}};
	int k;

	setitimer(ITIMER_PROF, &off, NULL);
	busy = 1;
	fprintf(stderr,
	        "cfi sampler: %lu samples, %lu compared with backtrace(), %lu differed, "
	        "%lu through objects loaded later, %lu not reached by backtrace(); deepest %lu; "
	        "walk %llu us on average, %llu us at most\n",
	        samples, compared, differed, skipped, unmatched, deepest,
	        (unsigned long long)(samples ? walk_ns / samples / 1000 : 0),
	        (unsigned long long)(walk_ns_max / 1000));
	if (differed != 0) {
		fprintf(stderr, "first difference: walk %d frames, backtrace %d\n", bad_n, bad_nbt);
		for (k = 0; k < bad_n || k < bad_nbt; k++)
			fprintf(stderr, "  [%d] %#18llx %18p\n", k,
			        k < bad_n ? (unsigned long long)bad_pcs[k] : 0ULL,
			        k < bad_nbt ? bad_bt[k] : NULL);
	}
	if (differed != 0 || compared < MIN_COMPARED) {
		fprintf(stderr, "cfi sampler: FAIL\n");
		fflush(stderr);
		_exit(1);
	}
}
