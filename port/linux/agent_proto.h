/*
 * port/linux/agent_proto.h: what the consumer and an agent say to each
 * other, and the per-process block they share in the arena.
 *
 * Each traced process has one SOCK_SEQPACKET connection to the consumer:
 * for `dtrace -c` a socket pair whose agent end the child inherits (its
 * number in DTRACE_AGENT_FD), for `dtrace -p` an abstract socket the
 * injected agent connects to.  The connection is the agent's lifeline:
 * when it reads end-of-file the consumer is gone, and the agent puts back
 * every byte it patched and goes quiet.  Messages are fixed-size records;
 * SETUP carries the arena's two memfds (the read-only part's as an
 * O_RDONLY descriptor) and the code arena's (SCM_RIGHTS).
 *
 *   agent -> consumer  HELLO   pid, protocol version, the dynamic linker's
 *                              debugger breakpoint (_r_debug.r_brk), the
 *                              function jump trampolines call (jump/)
 *   consumer -> agent  SETUP   arena base and size, code arena base and
 *                              size, the core's and the engine's handles,
 *                              this process's block; + 3 fds: the
 *                              arena's writable part, the code arena,
 *                              the arena's read-only part
 *   agent -> consumer  READY   mapped, attached, handlers installed
 *   consumer -> agent  GO      leave the constructor (-c): run the program
 *   consumer -> agent  PROFILE the profile requests in the block changed
 *   agent -> consumer  MODULES the loaded objects changed (dlopen/dlclose);
 *                              the agent waits for lab_modack to reach
 *                              the generation it sent
 *   consumer -> agent  DETACH  tracing is over: go quiet, stay loaded
 *   consumer -> agent  SYSCALL the system calls traced in the block's
 *                              table changed, or lab_guard was set
 *                              (agent_syscall.c); before GO only the
 *                              latter is acted on
 *   consumer -> agent  JUMP    do the block's jump request (lab_jreq):
 *                              map the code arena near an address, say
 *                              whether any other thread runs or waits in
 *                              a range, serialise instruction fetch;
 *                              answered in lab_counts
 *                              (lac_jdone, lac_jans), acted on before GO
 */
#ifndef DTRACE_PORT_LINUX_AGENT_PROTO_H
#define DTRACE_PORT_LINUX_AGENT_PROTO_H

#include <stdint.h>

#define LINUX_AGENT_VERSION 3
#define LINUX_AGENT_FD_ENV "DTRACE_AGENT_FD"

enum {
	LINUX_AGENT_HELLO = 1,
	LINUX_AGENT_SETUP,
	LINUX_AGENT_READY,
	LINUX_AGENT_GO,
	LINUX_AGENT_PROFILE,
	LINUX_AGENT_MODULES,
	LINUX_AGENT_DETACH,
	LINUX_AGENT_FAIL,
	LINUX_AGENT_SYSCALL,
	LINUX_AGENT_JUMP,
};

/* HELLO's arguments. */
#define AM_HELLO_VERSION 0
#define AM_HELLO_RBRK 1
#define AM_HELLO_JUMP 2

/* Jump requests (port/linux/jump.c asks, agent_jump.c answers). */
enum {
	LINUX_JUMP_NEAR = 1, /* arg0: map the code arena within a jump of it; answer: where */
	LINUX_JUMP_QUIESCE,  /* arg0..1: 0 if every other thread waits outside (lo, hi),
			      * then instruction fetch serialised; -EBUSY if one runs */
	LINUX_JUMP_SYNC,     /* serialise every thread's instruction fetch; 0 */
};

typedef struct linux_agent_msg {
	uint32_t am_type;
	uint32_t am_pid;
	uint64_t am_arg[8];
} linux_agent_msg_t;

/* SETUP's arguments. */
#define AM_ARENA_BASE 0
#define AM_ARENA_SIZE 1
#define AM_CODE_BASE 2
#define AM_CODE_SIZE 3
#define AM_CORE 4
#define AM_INST 5
#define AM_BLOCK 6

/* FAIL's arguments: the errno value, and the step of SETUP that failed. */
#define AM_FAIL_ERRNO 0
#define AM_FAIL_STEP 1
enum {
	LINUX_AGENT_STEP_ARENA = 1, /* mapping the arena at its address */
	LINUX_AGENT_STEP_CODE,	    /* mapping the code arena at its address */
	LINUX_AGENT_STEP_ATTACH,    /* adopting the core's and the engine's tables */
	LINUX_AGENT_STEP_TRAPS,	    /* installing the trap handlers */
};

/* profile-N probes the agent fires in its process's threads. */
#define LINUX_AGENT_MAXPROF 16

typedef struct linux_agent_prof {
	uint32_t lap_id;       /* probe id, 0: unused */
	uint32_t lap_pad;
	uint64_t lap_interval; /* ns */
} linux_agent_prof_t;

/*
 * Semaphores (SystemTap's counters that say a probe is enabled) the
 * consumer incremented in the process.  The record is made after the
 * increment and cleared before it is taken back, so an agent whose
 * consumer died takes back what las_applied says (agent_usdt.c).  Chunks
 * in the arena, appended by the consumer and never unlinked while the
 * process is traced.
 */
#define LINUX_AGENT_SEMCHUNK 64

typedef struct linux_agent_sem {
	volatile uint64_t las_addr;    /* an unsigned short in the process; 0: unused */
	volatile uint32_t las_applied; /* our increment is in the process's memory */
	uint32_t las_refs;	       /* consumer: enabled sites counting on it */
} linux_agent_sem_t;

typedef struct linux_agent_sems {
	struct linux_agent_sems *volatile lass_next;
	linux_agent_sem_t lass_sem[LINUX_AGENT_SEMCHUNK];
} linux_agent_sems_t;

/*
 * The syscall provider's probes for the process: for each system call
 * number, the ids of its enabled entry and return probes (0: not enabled).
 * In the arena, made by the consumer with the first enabling; the agent
 * traps the numbers with either set (agent_syscall.c) and says in
 * las_status why it could not (an errno value), 0 when it does.
 */
#define LINUX_AGENT_MAXSYS 1024

typedef struct linux_agent_sys {
	volatile uint32_t las_entry[LINUX_AGENT_MAXSYS];
	volatile uint32_t las_return[LINUX_AGENT_MAXSYS];
	volatile int32_t las_status; /* agent */
} linux_agent_sys_t;

/* What the agent writes: in the arena's writable part, so the consumer
 * believes none of it beyond a counter's value. */
typedef struct linux_agent_counts {
	volatile uint32_t lac_modgen;  /* bumped at each module change */
	/* probe firings refused: the thread was already in probe context
	 * (a signal's probe inside another's), or no CPU slot was free;
	 * reported by dtrace as drops in this process */
	volatile uint64_t lac_refused;
	/* the answer to lab_guard: 1 done, -errno refused */
	volatile int32_t lac_guarded;
	/* the last jump request done (lab_jseq) and its answer: >= 0, or
	 * -errno */
	volatile uint64_t lac_jdone;
	volatile int64_t lac_jans;
} linux_agent_counts_t;

/* One per traced process, in the arena's read-only part: only the
 * consumer writes it. */
typedef struct linux_agent_block {
	uint64_t lab_pid;
	volatile uint64_t lab_gen;     /* bumped when lab_prof changes */
	linux_agent_prof_t lab_prof[LINUX_AGENT_MAXPROF];
	volatile uint32_t lab_modack;  /* the last module change handled */
	volatile uint32_t lab_detached; /* tracing is over */
	linux_agent_counts_t *lab_counts;      /* the agent's counters */
	linux_agent_sems_t *volatile lab_sems; /* semaphores we incremented */
	linux_agent_sys_t *volatile lab_sys;   /* system calls traced, or NULL */
	/* Breakpoints are (about to be) armed in the process: keep SIGTRAP
	 * out of every signal mask and its handler ours (agent_syscall.c).
	 * The agent answers in lab_counts->lac_guarded (the block is
	 * read-only to it). */
	volatile uint32_t lab_guard;
	/* A jump request: its operation (LINUX_JUMP_*) and arguments, then
	 * its number (release), then a JUMP message. */
	uint32_t lab_jop;
	uint64_t lab_jarg[3];
	volatile uint64_t lab_jseq;
} linux_agent_block_t;

#endif
