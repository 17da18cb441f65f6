/*
 * core/ctl_ioctl.c: the control operations as a kernel's device ioctl
 * receives them.
 *
 * dtrace_ctl() works on structures in the core's own address space.  A
 * kernel's consumer is on the far side of copyin/copyout, and some of its
 * structures point further into its memory: snapshot data, format strings,
 * DOF images, and on FreeBSD and NetBSD the structure itself for the
 * operations whose ioctl payload is only its address.  Every kernel backend
 * calls dtrace_ctl_ioctl() from its ioctl entry point with the kernel's copy
 * functions, so this walk of the nested pointers exists once, tested on the
 * build machine with a fake consumer address space (tests/core).
 *
 * Rules kept here:
 *   - the consumer's memory is touched only through dtrace_uaccess_t, and a
 *     fault is DTRACE_EFAULT, never a crash or a partial structure copied
 *     back as if it succeeded;
 *   - what the consumer says about sizes is bounded before allocating: DOF by
 *     the core's DOF limit (the same check and message as dtrace_ctl), record
 *     arrays by the number of records that exist;
 *   - snapshot data goes out from the core's buffer (no bounce copy), under
 *     FRAMEWORK like DTrace's copyout under dtrace_lock;
 *   - a structure is copied back only when the operation succeeded.
 *
 * Called by port/<os>/ ioctl handlers with no core lock held; may sleep in
 * the copy functions.  Never in probe context.
 */
#include "dtrace_impl.h"

/* How an operation's structure travels (dtrace_ctlio[].flags). */
#define CTLIO_IN 0x01	 /* the core reads it: copy it in */
#define CTLIO_OUT 0x02	 /* the core fills it: copy it back on success */
#define CTLIO_BYREF 0x04 /* SIZED ABI: the payload is its address */

static const struct dtrace_ctlio {
	uint16_t size; /* the structure (fixed part); 0: no such operation */
	uint8_t flags;
} dtrace_ctlio[] = {
	[DTRACE_CTL_PROVIDER] = {sizeof(dtrace_providerdesc_t), CTLIO_IN | CTLIO_OUT},
	[DTRACE_CTL_PROBES] = {sizeof(dtrace_probedesc_t), CTLIO_IN | CTLIO_OUT},
	[DTRACE_CTL_BUFSNAP] = {sizeof(dtrace_bufdesc_t), CTLIO_IN | CTLIO_OUT | CTLIO_BYREF},
	[DTRACE_CTL_PROBEMATCH] = {sizeof(dtrace_probedesc_t), CTLIO_IN | CTLIO_OUT},
	[DTRACE_CTL_AGGSNAP] = {sizeof(dtrace_bufdesc_t), CTLIO_IN | CTLIO_OUT | CTLIO_BYREF},
	[DTRACE_CTL_EPROBE] = {sizeof(dtrace_eprobedesc_t), CTLIO_IN | CTLIO_OUT | CTLIO_BYREF},
	[DTRACE_CTL_PROBEARG] = {sizeof(dtrace_argdesc_t), CTLIO_IN | CTLIO_OUT},
	[DTRACE_CTL_CONF] = {sizeof(dtrace_conf_t), CTLIO_OUT},
	[DTRACE_CTL_STATUS] = {sizeof(dtrace_status_t), CTLIO_OUT},
	[DTRACE_CTL_GO] = {sizeof(int32_t), CTLIO_OUT},
	[DTRACE_CTL_STOP] = {sizeof(int32_t), CTLIO_OUT},
	[DTRACE_CTL_AGGDESC] = {sizeof(dtrace_aggdesc_t), CTLIO_IN | CTLIO_OUT | CTLIO_BYREF},
	[DTRACE_CTL_FORMAT] = {sizeof(dtrace_fmtdesc_t), CTLIO_IN | CTLIO_OUT},
	/* copied back by dtrace_ctl_dofget_copy, image and all */
	[DTRACE_CTL_DOFGET] = {sizeof(dof_hdr_t), CTLIO_IN | CTLIO_BYREF},
	[DTRACE_CTL_REPLICATE] = {sizeof(dtrace_repldesc_t), CTLIO_IN},
};

/* Room for any operation's fixed structure. */
typedef union dtrace_ctlio_buf {
	dtrace_providerdesc_t pvd;
	dtrace_probedesc_t pd;
	dtrace_bufdesc_t bd;
	dtrace_eprobedesc_t epd;
	dtrace_argdesc_t ad;
	dtrace_conf_t conf;
	dtrace_status_t st;
	int32_t cpu;
	dtrace_aggdesc_t agd;
	dtrace_fmtdesc_t fd;
	dof_hdr_t dof;
	dtrace_repldesc_t rd;
} dtrace_ctlio_buf_t;

static int
dtrace_ctlio_in(const dtrace_uaccess_t *ua, uintptr_t src, void *dst, size_t len)
{
	if (src == 0)
		return DTRACE_EFAULT;
	return ua->dua_copyin(ua->dua_ctx, src, dst, len) != 0 ? DTRACE_EFAULT : 0;
}

static int
dtrace_ctlio_out(const dtrace_uaccess_t *ua, const void *src, uintptr_t dst, size_t len)
{
	if (dst == 0)
		return DTRACE_EFAULT;
	return ua->dua_copyout(ua->dua_ctx, src, dst, len) != 0 ? DTRACE_EFAULT : 0;
}

/* The copyout of the nested buffers, refusing address 0 as the others. */
static int
dtrace_ctlio_copyout(void *ctx, const void *src, uintptr_t dst, size_t len)
{
	return dtrace_ctlio_out(ctx, src, dst, len);
}

/*
 * ENABLE: the image's header first, for its size; then the whole image into
 * memory the core owns.  A consumer that changes the header in between gets
 * an image whose dofh_loadsz disagrees with its size, which the DOF loader
 * refuses.
 */
static int
dtrace_ctlio_enable(dtrace_state_t *state, dtrace_ioctl_abi_t abi, void *arg,
		    const dtrace_uaccess_t *ua, int *rv)
{
	dtrace_enable_io_t *eio = NULL;
	uintptr_t udof;
	dof_hdr_t hdr, *dof;
	size_t size;
	int err;

	if (abi == DTRACE_IOCTL_SIZED) {
		if ((eio = arg) == NULL)
			return DTRACE_EFAULT;
		udof = (uintptr_t)eio->dof;
	} else {
		udof = (uintptr_t)arg;
	}
	if (udof == 0) { /* DTrace's cue to match enablings against new probes */
		err = dtrace_ctl(state, DTRACE_CTL_ENABLE, NULL, rv);
	} else {
		if ((err = dtrace_ctlio_in(ua, udof, &hdr, sizeof(hdr))) != 0)
			return err;
		if ((err = dtrace_ctl_dof_size(state, &hdr, &size)) != 0)
			return err;
		if ((dof = dtrace_port_zalloc(size)) == NULL)
			return DTRACE_ENOMEM;
		if ((err = dtrace_ctlio_in(ua, udof, dof, size)) != 0) {
			dtrace_port_free(dof, size);
			return err;
		}
		err = dtrace_ctl_enable_image(state, dof, size, rv);
	}
	if (err == 0 && eio != NULL)
		eio->n_matched = *rv;
	return err;
}

/*
 * EPROBE and AGGDESC: a header followed by as many records as the consumer
 * made room for (dtepd_nrecs, dtagd_nrecs); the core reports how many exist.
 * Ask first with no room, then allocate for the smaller of the two, so the
 * consumer's count never sizes an allocation.  Copied back: the header and
 * the records written.
 */
static int
dtrace_ctlio_records(dtrace_state_t *state, dtrace_ctl_t cmd, dtrace_ctlio_buf_t *k,
		     uintptr_t uaddr, const dtrace_uaccess_t *ua, int *rv)
{
	bool ep = cmd == DTRACE_CTL_EPROBE;
	size_t hdrsize = ep ? offsetof(dtrace_eprobedesc_t, dtepd_rec)
			    : offsetof(dtrace_aggdesc_t, dtagd_rec);
	int32_t *nrecs = ep ? &k->epd.dtepd_nrecs : &k->agd.dtagd_nrecs;
	int32_t room = *nrecs > 0 ? *nrecs : 0, want, got;
	dtrace_ctlio_buf_t in = *k;
	char *desc;
	size_t size;
	int err;

	*nrecs = 0;
	if ((err = dtrace_ctl(state, cmd, k, rv)) != 0)
		return err;
	want = *nrecs < room ? *nrecs : room;
	if (want == 0)
		return dtrace_ctlio_out(ua, k, uaddr, hdrsize);

	size = hdrsize + (size_t)want * sizeof(dtrace_recdesc_t);
	if ((desc = dtrace_port_zalloc(size)) == NULL)
		return DTRACE_ENOMEM;
	memcpy(desc, &in, hdrsize);
	memcpy(desc + (ep ? offsetof(dtrace_eprobedesc_t, dtepd_nrecs)
			  : offsetof(dtrace_aggdesc_t, dtagd_nrecs)),
	       &want, sizeof(want));
	if ((err = dtrace_ctl(state, cmd, desc, rv)) == 0) {
		memcpy(&got, desc + (ep ? offsetof(dtrace_eprobedesc_t, dtepd_nrecs)
					: offsetof(dtrace_aggdesc_t, dtagd_nrecs)),
		       sizeof(got));
		if (got < want)
			want = got;
		err = dtrace_ctlio_out(ua, desc, uaddr,
				       hdrsize + (size_t)want * sizeof(dtrace_recdesc_t));
	}
	dtrace_port_free(desc, size);
	return err;
}

int
dtrace_ctl_ioctl(dtrace_state_t *state, dtrace_ctl_t cmd, dtrace_ioctl_abi_t abi, void *arg,
		 const dtrace_uaccess_t *ua, int *rv)
{
	const struct dtrace_ctlio *io;
	dtrace_ctlio_buf_t k;
	uintptr_t uaddr = 0; /* the structure's consumer address, if it has one */
	void *kp = arg;	     /* the structure in kernel memory */
	int dummy, err;

	if (rv == NULL)
		rv = &dummy;
	*rv = 0;
	if (state == NULL || ua == NULL ||
	    (abi != DTRACE_IOCTL_UADDR && abi != DTRACE_IOCTL_SIZED))
		return DTRACE_EINVAL;
	if (cmd == DTRACE_CTL_ENABLE)
		return dtrace_ctlio_enable(state, abi, arg, ua, rv);
	if ((unsigned)cmd >= sizeof(dtrace_ctlio) / sizeof(dtrace_ctlio[0]) ||
	    dtrace_ctlio[cmd].size == 0)
		return DTRACE_ENOTSUP;
	io = &dtrace_ctlio[cmd];

	if (abi == DTRACE_IOCTL_SIZED && !(io->flags & CTLIO_BYREF)) {
		if (arg == NULL)
			return DTRACE_EFAULT;
	} else {
		if (abi == DTRACE_IOCTL_UADDR) {
			uaddr = (uintptr_t)arg;
		} else {
			void *p;

			if (arg == NULL)
				return DTRACE_EFAULT;
			memcpy(&p, arg, sizeof(p)); /* the payload is a native pointer */
			uaddr = (uintptr_t)p;
		}
		if (uaddr == 0)
			return DTRACE_EFAULT;
		memset(&k, 0, sizeof(k));
		if ((io->flags & CTLIO_IN) && (err = dtrace_ctlio_in(ua, uaddr, &k, io->size)) != 0)
			return err;
		kp = &k;
	}

	switch (cmd) {
	case DTRACE_CTL_EPROBE:
	case DTRACE_CTL_AGGDESC:
		return dtrace_ctlio_records(state, cmd, &k, uaddr, ua, rv);
	case DTRACE_CTL_BUFSNAP:
	case DTRACE_CTL_AGGSNAP:
		err = dtrace_ctl_snapshot(state, cmd, kp, dtrace_ctlio_copyout, (void *)ua);
		break;
	case DTRACE_CTL_FORMAT:
		err = dtrace_ctl_format_copy(state, kp, dtrace_ctlio_copyout, (void *)ua);
		break;
	case DTRACE_CTL_DOFGET:
		return dtrace_ctl_dofget_copy(state, ((dof_hdr_t *)kp)->dofh_loadsz, uaddr,
					      dtrace_ctlio_copyout, (void *)ua);
	default:
		err = dtrace_ctl(state, cmd, kp, rv);
		break;
	}
	if (err == 0 && (io->flags & CTLIO_OUT) && uaddr != 0)
		err = dtrace_ctlio_out(ua, kp, uaddr, io->size);
	return err;
}
