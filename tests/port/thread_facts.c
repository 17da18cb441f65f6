/*
 * tests/port/thread_facts.c: current-thread facts, time, the profile
 * provider's probe names, and destructive actions.
 *
 * pid/tid/ppid/hwcpu/curthread match the system calls, uid/gid are the
 * effective ids (checked by switching one thread's, when run as root), the key is
 * unique per thread, vtime and the clocks advance, execname is the
 * process's comm; progenyof() sees every ancestor (the grandparent, pid 1,
 * the root's 0) but not a child; profile names parse with DTrace's units and limits;
 * raise() is delivered only when the thread leaves probe context; chill()
 * spins at least as long as asked.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"
#include "port_test.h"

static uint64_t other_key, other_tid;
static uint64_t switched_uid, switched_gid, switched_ruid, switched_rgid;
static int switched;
static volatile sig_atomic_t got_usr1;

static void *
other_thread(void *arg)
{
	(void)arg;
	other_key = dtrace_port_curthread_value(DTRACE_THR_KEY);
	other_tid = dtrace_port_curthread_value(DTRACE_THR_TID);
	return NULL;
}

/*
 * Switch this thread's effective ids only (raw system calls: glibc's
 * wrappers would change every thread) and read the facts: they must be the
 * effective ids, not the real ones that stay 0.
 */
static void *
effective_ids_thread(void *arg)
{
	(void)arg;
	if (syscall(SYS_setresgid, -1, 4242, -1) != 0 || syscall(SYS_setresuid, -1, 4343, -1) != 0)
		return NULL;
	switched = 1;
	switched_uid = dtrace_port_curthread_value(DTRACE_THR_UID);
	switched_gid = dtrace_port_curthread_value(DTRACE_THR_GID);
	switched_ruid = (uint64_t)syscall(SYS_getuid);
	switched_rgid = (uint64_t)syscall(SYS_getgid);
	/* Saved ids are still 0: give the thread its root back before exit. */
	syscall(SYS_setresuid, -1, 0, -1);
	syscall(SYS_setresgid, -1, 0, -1);
	return NULL;
}

static void
on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

static void
test_progenyof(void)
{
	long grandparent = -1;
	char path[64];
	pid_t child;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)getppid());
	if ((f = fopen(path, "r")) != NULL) {
		if (fscanf(f, "%*d (%*[^)]) %*c %ld", &grandparent) != 1)
			grandparent = -1;
		fclose(f);
	}
	CHECK(dtrace_port_curproc_progenyof((uint64_t)getpid()) == 1, "progenyof(self)");
	CHECK(dtrace_port_curproc_progenyof((uint64_t)getppid()) == 1, "progenyof(parent)");
	CHECK(grandparent >= 0, "read the grandparent from %s", path);
	CHECK(dtrace_port_curproc_progenyof((uint64_t)grandparent) == 1, "progenyof(grandparent %ld)",
	      grandparent);
	CHECK(getpid() == 1 || dtrace_port_curproc_progenyof(1) == 1, "progenyof(1)");
	CHECK(dtrace_port_curproc_progenyof(0) == 1, "progenyof(0), the root");
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	CHECK(child > 0, "fork");
	CHECK(dtrace_port_curproc_progenyof((uint64_t)child) == 0, "a child is not an ancestor");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static void
test_profile_names(void)
{
	static const struct {
		const char *name;
		bool ok;
		int kind;
		uint64_t ns;
	} cases[] = {
		{"profile-97", true, 0, 1000000000ULL / 97},
		{"profile-997hz", true, 0, 1000000000ULL / 997},
		{"profile-5000", true, 0, 200000},
		{"profile-5001", false, 0, 0},
		{"profile-199us", false, 0, 0},
		{"profile-200us", true, 0, 200000},
		{"tick-1s", true, 1, 1000000000ULL},
		{"tick-1sec", true, 1, 1000000000ULL},
		{"tick-10ms", true, 1, 10000000ULL},
		{"tick-10msec", true, 1, 10000000ULL},
		{"tick-500000ns", true, 1, 500000ULL},
		{"tick-300000nsec", true, 1, 300000ULL},
		{"tick-199999nsec", false, 0, 0},
		{"profile-1000hz", true, 0, 1000000ULL},
		{"profile-3s", true, 0, 3000000000ULL},
		{"tick-250usec", true, 1, 250000ULL},
		{"tick-2m", true, 1, 120000000000ULL},
		{"tick-1min", true, 1, 60000000000ULL},
		{"tick-1h", true, 1, 3600000000000ULL},
		{"tick-1hour", true, 1, 3600000000000ULL},
		{"tick-1d", true, 1, 86400000000000ULL},
		{"tick-1day", true, 1, 86400000000000ULL},
		{"tick-1", true, 1, 1000000000ULL},
		{"tick-", false, 0, 0},
		{"tick-1x", false, 0, 0},
		{"tick-0", false, 0, 0},
		{"tick-s", false, 0, 0},
		{"profile", false, 0, 0},
		{"BEGIN", false, 0, 0},
	};
	uint64_t ns;
	size_t i;
	int kind;
	bool ok;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ns = 0;
		kind = -1;
		ok = linux_profile_parse(cases[i].name, &kind, &ns);
		CHECK(ok == cases[i].ok && (!ok || (kind == cases[i].kind && ns == cases[i].ns)),
		      "%s: ok %d kind %d ns %llu", cases[i].name, ok, kind,
		      (unsigned long long)ns);
	}
}

int
main(void)
{
	char comm[17] = "";
	pthread_t t;
	uint64_t t0, t1, v0, v1;
	volatile uint64_t spin = 0;
	dtrace_cpuid_t cpu;
	uintptr_t cookie;
	FILE *f;
	int i;

	CHECK(linux_arena_create((size_t)64 << 20) == 0, "arena");
	linux_slots_init(0);
	linux_thread_refresh_execname();

	CHECK(dtrace_port_curthread_value(DTRACE_THR_PID) == (uint64_t)getpid(), "pid");
	CHECK(dtrace_port_curthread_value(DTRACE_THR_TID) == (uint64_t)gettid(), "tid");
	CHECK(dtrace_port_curthread_value(DTRACE_THR_PPID) == (uint64_t)getppid(), "ppid");
	CHECK(dtrace_port_curthread_value(DTRACE_THR_UID) == (uint64_t)geteuid(), "uid");
	CHECK(dtrace_port_curthread_value(DTRACE_THR_GID) == (uint64_t)getegid(), "gid");
	if (geteuid() == 0) {
		pthread_create(&t, NULL, effective_ids_thread, NULL);
		pthread_join(t, NULL);
		CHECK(switched, "switched a thread's effective ids");
		CHECK(switched_uid == 4343 && switched_ruid == 0, "uid is the effective uid (%llu)",
		      (unsigned long long)switched_uid);
		CHECK(switched_gid == 4242 && switched_rgid == 0, "gid is the effective gid (%llu)",
		      (unsigned long long)switched_gid);
		CHECK(dtrace_port_curthread_value(DTRACE_THR_UID) == 0, "other threads unchanged");
	} else {
		printf("not root: effective-id switch not exercised\n");
	}
	CHECK(dtrace_port_curthread_value(DTRACE_THR_CURTHREAD) == (uint64_t)pthread_self(),
	      "curthread");
	CHECK(dtrace_port_curthread_value(DTRACE_THR_HWCPU) < (uint64_t)CPU_SETSIZE, "hwcpu");
	pthread_create(&t, NULL, other_thread, NULL);
	pthread_join(t, NULL);
	CHECK(other_key != 0 && other_key != dtrace_port_curthread_value(DTRACE_THR_KEY),
	      "thread keys differ");
	CHECK(other_tid != (uint64_t)gettid(), "other thread's tid");

	v0 = dtrace_port_curthread_value(DTRACE_THR_VTIME);
	for (i = 0; i < 10000000; i++)
		spin += (uint64_t)i;
	v1 = dtrace_port_curthread_value(DTRACE_THR_VTIME);
	CHECK(spin != 0, "spun");
	CHECK(v1 > v0, "vtime advances (%llu -> %llu)", (unsigned long long)v0,
	      (unsigned long long)v1);
	t0 = dtrace_port_gethrtime();
	CHECK(dtrace_port_gethrtime() >= t0, "monotonic");
	CHECK(dtrace_port_getwalltime() > 1600000000ULL * 1000000000ULL, "wall time");

	f = fopen("/proc/self/comm", "r");
	if (f != NULL) {
		if (fgets(comm, sizeof(comm), f) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	CHECK(strcmp(dtrace_port_curthread_execname(), comm) == 0, "execname '%s' vs '%s'",
	      dtrace_port_curthread_execname(), comm);

	test_progenyof();
	test_profile_names();

	/* raise(): posted, delivered at probe exit. */
	signal(SIGUSR1, on_usr1);
	CHECK(dtrace_port_probe_enter(&cpu, &cookie), "enter");
	dtrace_port_raise(SIGUSR1);
	CHECK(got_usr1 == 0, "not delivered inside probe context");
	dtrace_port_probe_exit(cpu, cookie);
	CHECK(got_usr1 == 1, "delivered at probe exit");

	t0 = dtrace_port_gethrtime();
	dtrace_port_chill(20 * 1000000ULL);
	t1 = dtrace_port_gethrtime();
	CHECK(t1 - t0 >= 20 * 1000000ULL, "chill spun %llu ns", (unsigned long long)(t1 - t0));
	TEST_DONE();
}
