/*
 * core/dtrace.h: the core's API for providers, ports and consumers.
 *
 * Three kinds of caller use this header:
 *   - providers (in port/<os>/, and the core's own `dtrace` provider)
 *     register, create probes and fire them with dtrace_probe();
 *   - the port calls dtrace_init()/dtrace_fini() once and routes its trap
 *     handlers to providers;
 *   - a consumer front end (a kernel's device ioctl handler, or the Linux
 *     host calling directly) opens a state and drives it with dtrace_ctl().
 *
 * Everything here except dtrace_probe() is called outside probe context.
 */
#ifndef DTRACE_CORE_DTRACE_H
#define DTRACE_CORE_DTRACE_H

#include "dtrace_abi.h"
#include "port.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Framework life cycle (port, once) -------------------------------- */

/* Set up the framework and register the `dtrace` provider (probes
 * BEGIN = 1, END = 2, ERROR = 3).  Returns 0 or an errno value. */
int dtrace_init(void);
/* Tear down; fails with DTRACE_EBUSY while any state is open. */
int dtrace_fini(void);

/*
 * Firing probes from a second address space.  A port whose probes fire in
 * other processes than the one that called dtrace_init() (the Linux host:
 * agents inside traced processes) maps the memory dtrace_port_zalloc()
 * and dtrace_port_zalloc_probe() hand out at the same address in each of
 * them (the first may be read-only there: the copy's probe context never
 * writes it) and links a copy of the core there.  dtrace_globals_handle() (in the initialising process) gives
 * the one pointer the copy needs; dtrace_attach() (in the other process)
 * makes dtrace_probe() there fire the initialising core's probes, into its
 * buffers.  Only dtrace_probe() may be called in an attached copy: every
 * other entry point belongs to the initialising process.  Probe context in
 * an attached copy never calls a provider's function pointers, so a
 * provider whose probes fire there leaves dtps_getargval NULL (the port's
 * dtrace_port_getarg() answers instead).  dtrace_attach() returns 0,
 * DTRACE_EINVAL if the handle is not a core's, DTRACE_EBUSY in a process
 * that ran dtrace_init(); dtrace_detach() forgets the handle.
 */
void *dtrace_globals_handle(void);
int dtrace_attach(void *globals);
void dtrace_detach(void);

/* --- Providers ---------------------------------------------------------- */

typedef uintptr_t dtrace_provider_id_t;

/* Callbacks a provider gives at registration; the core calls them with
 * DTRACE_LOCK_PROVIDER held (provide) or FRAMEWORK held (the rest), never in
 * probe context.  `parg` is the provider's registration argument, `parg_probe`
 * the per-probe argument given to dtrace_probe_create(). */
typedef struct dtrace_pops {
	/* Create probes matching desc (NULL: all the provider can offer now). */
	void (*dtps_provide)(void *parg, const dtrace_probedesc_t *desc);
	/* Arm a probe: from now on it may fire.  Return 0 or an errno. */
	int (*dtps_enable)(void *parg, dtrace_id_t id, void *parg_probe);
	void (*dtps_disable)(void *parg, dtrace_id_t id, void *parg_probe);
	/* Describe argument `desc->dtargd_ndx` (may be NULL). */
	void (*dtps_getargdesc)(void *parg, dtrace_id_t id, void *parg_probe,
				dtrace_argdesc_t *desc);
	/* Value of argument n beyond those passed to dtrace_probe (may be NULL:
	 * the core then asks dtrace_port_getarg()).  probe context: yes. */
	uint64_t (*dtps_getargval)(void *parg, dtrace_id_t id, void *parg_probe, int n,
				   int aframes);
	/* The probe is going away (provider unregistering or probe removal). */
	void (*dtps_destroy)(void *parg, dtrace_id_t id, void *parg_probe);
} dtrace_pops_t;

/*
 * Register a provider.  `priv` is the DTRACE_PRIV_* a consumer needs to see
 * its probes (DTRACE_PRIV_NONE: everyone with any DTrace privilege).  The
 * name must be non-empty, start with a letter, '-', '_' or '.', and hold only
 * letters, digits, '-', '_', '.' and '`'.  dtps_provide, dtps_enable,
 * dtps_disable and dtps_destroy are required.  Returns 0 or DTRACE_EINVAL.
 */
int dtrace_register(const char *name, const dtrace_pattr_t *attr, uint32_t priv,
		    const dtrace_pops_t *ops, void *parg, dtrace_provider_id_t *idp);
/* The same for a provider acting for one user (pid, USDT): with
 * DTRACE_PRIV_OWNER in priv only that uid (or a consumer holding
 * DTRACE_PRIV_OWNER) sees its probes. */
int dtrace_register_owned(const char *name, const dtrace_pattr_t *attr, uint32_t priv,
			  uint32_t uid, const dtrace_pops_t *ops, void *parg,
			  dtrace_provider_id_t *idp);
/* Remove a provider and destroy its probes.  Fails with DTRACE_EBUSY while a
 * consumer state is open (unless the provider was invalidated first) or any
 * of its probes is enabled. */
int dtrace_unregister(dtrace_provider_id_t id);
/* Mark a provider defunct: its probes no longer match, so a later
 * dtrace_unregister succeeds once their ECBs are gone. */
void dtrace_invalidate(dtrace_provider_id_t id);
/* Destroy every probe of the provider that is not enabled. */
int dtrace_condense(dtrace_provider_id_t id);

/* Create a probe; returns its id (never 0) or 0 when out of memory.  The
 * provider must hold no core lock; `aframes` is the number of artificial
 * stack frames between the probe site and dtrace_probe(). */
dtrace_id_t dtrace_probe_create(dtrace_provider_id_t prov, const char *mod, const char *func,
				const char *name, int aframes, void *parg_probe);
/* Look a probe up by its full name (NULL fields match anything); 0 when
 * absent. */
dtrace_id_t dtrace_probe_lookup(dtrace_provider_id_t prov, const char *mod, const char *func,
				const char *name);
/* The per-probe argument of one of the provider's probes, or NULL. */
void *dtrace_probe_arg(dtrace_provider_id_t prov, dtrace_id_t id);
/* Destroy one probe of the provider; DTRACE_EBUSY while it is enabled,
 * DTRACE_ENOENT if it is not the provider's. */
int dtrace_probe_destroy(dtrace_provider_id_t prov, dtrace_id_t id);

/* D's glob match of a probe field: `*`, `?`, `[...]` and `\\`, as probe
 * descriptions use them; providers filter what dtps_provide creates with
 * it.  An empty pattern matches only the empty string. */
bool dtrace_match_glob(const char *str, const char *pattern);

/* Providers call this after creating probes outside a dtps_provide call
 * (a module loaded, a process started): enablings that consumers have
 * already made are matched against the new probes. */
void dtrace_enabling_matchall(void);
/* The same for a provider whose world changed (a traced process loaded a
 * library): it is asked again to provide every description consumers have
 * enabled, then the enablings are matched. */
void dtrace_enabling_reprovide(dtrace_provider_id_t id);

/* Fire probe `id`.  The one entry to probe context.  probe context: yes. */
void dtrace_probe(dtrace_id_t id, uint64_t arg0, uint64_t arg1, uint64_t arg2, uint64_t arg3,
		  uint64_t arg4);

/* --- Consumer states and control operations ----------------------------- */

typedef struct dtrace_state dtrace_state_t;

/* Open a consumer state.  `priv` and `uid` decide the privilege checks
 * (DTRACE_PRIV_* bits of dtrace_abi.h): DTRACE_PRIV_NONE is refused with
 * DTRACE_EACCES.  Every provider is first asked to provide its probes. */
int dtrace_state_open(uint32_t priv, uint32_t uid, dtrace_state_t **statep);
/* Close a state, stopping it first if it still runs (no END firing). */
void dtrace_state_close(dtrace_state_t *state);
/* Why the last DTRACE_CTL_ENABLE on this state failed (the DOF check or the
 * ECB construction step that refused it), or NULL. */
const char *dtrace_state_errmsg(const dtrace_state_t *state);

/*
 * Perform control operation `cmd` (dtrace_ctl_t, the DTRACEIOC_* set) with
 * its argument structure `arg`, laid out as for the corresponding DTrace
 * ioctl.  Buffers that the structures point to (dtbd_data, DOF images,
 * probe descriptions) are in the caller's address space; a kernel's ioctl
 * glue copies them in and out, the Linux host passes its own pointers.
 * Returns 0 or an errno value; *rv receives the operation's result value
 * where it has one (e.g. the number of matched probes for ENABLE).
 *
 * Errors as DTrace: DTRACE_ESRCH (no such provider/probe), DTRACE_EINVAL
 * (bad argument, or DOF refused: see dtrace_state_errmsg), DTRACE_EBUSY
 * (ENABLE after GO, snapshot of a ring/fill buffer before STOP), DTRACE_ENOENT
 * (STATUS before GO, snapshot of a CPU without a buffer), DTRACE_E2BIG (DOF
 * too large, buffers smaller than the reserve), DTRACE_EFBIG (GO: a buffer
 * beyond 16 MB per CPU for a state opened without DTRACE_PRIV_ALL),
 * DTRACE_ENOSPC (a needed buffer sized 0; a snapshot whose stated room,
 * dtbd_size != 0, is too small), DTRACE_EACCES (destructive actions without
 * the destructive option), DTRACE_ENOTSUP (unknown cmd).  As in DTrace, a
 * snapshot's dtbd_data must have room for a whole buffer when dtbd_size is 0.
 * Not DTrace's: DTRACE_EBADMSG, a snapshot that found the buffer's shared
 * header corrupt (a traced process wrote it; see core/README.md) and reset
 * the buffer to empty.
 */
int dtrace_ctl(dtrace_state_t *state, dtrace_ctl_t cmd, void *arg, int *rv);

/* --- The control operations behind a kernel's ioctl (core/ctl_ioctl.c) --- */

/*
 * How the kernel reaches the consumer's memory: copyin copies len bytes from
 * the consumer's address usrc to the kernel's kdst, copyout the other way;
 * each returns 0, or non-zero when the address is bad (the operation then
 * fails with DTRACE_EFAULT).  A kernel passes its copyin(9)/copyout(9); a
 * test passes functions over its own buffer.  They may sleep.
 */
typedef struct dtrace_uaccess {
	int (*dua_copyin)(void *ctx, uintptr_t usrc, void *kdst, size_t len);
	int (*dua_copyout)(void *ctx, const void *ksrc, uintptr_t udst, size_t len);
	void *dua_ctx;
} dtrace_uaccess_t;

/*
 * How the kernel hands the ioctl argument to its driver:
 *   DTRACE_IOCTL_UADDR  `arg` is the consumer's address of the operation's
 *       structure (illumos: the commands carry no size).  GO and STOP write
 *       an int32_t there; ENABLE's `arg` is the DOF image's address and the
 *       matched count is returned in *rv.
 *   DTRACE_IOCTL_SIZED  `arg` is the kernel's copy of the payload whose size
 *       the command encodes, copied back out by the kernel when the command
 *       says so (FreeBSD and NetBSD _IOW/_IOWR).  The payload is the structure
 *       itself, except: BUFSNAP, AGGSNAP, EPROBE, AGGDESC and DOFGET carry
 *       the consumer's address of their structure (a pointer to a pointer
 *       in the consumer); ENABLE carries a dtrace_enable_io_t, whose
 *       n_matched is set (and *rv too).
 */
typedef enum dtrace_ioctl_abi {
	DTRACE_IOCTL_UADDR = 1,
	DTRACE_IOCTL_SIZED = 2
} dtrace_ioctl_abi_t;

/*
 * Perform control operation `cmd` for a consumer on the other side of a
 * kernel boundary: copy the structure in, every nested buffer in or out
 * (snapshot data straight from the core's buffer, the format string, the
 * DOF image of ENABLE, read by its header's load size and refused at the
 * core's DOF limit, and of DOFGET, the record arrays of EPROBE and AGGDESC
 * up to the room the consumer gave), call dtrace_ctl() and copy the result
 * out.  Returns what dtrace_ctl() returns, DTRACE_EFAULT when a consumer
 * address is bad, DTRACE_ENOMEM, or DTRACE_ENOTSUP for an unknown cmd.  The
 * kernel maps its ioctl numbers to dtrace_ctl_t before calling.  Never in
 * probe context.
 */
int dtrace_ctl_ioctl(dtrace_state_t *state, dtrace_ctl_t cmd, dtrace_ioctl_abi_t abi, void *arg,
		     const dtrace_uaccess_t *ua, int *rv);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_CORE_DTRACE_H */
