/*
 * The signal and errno numbers of DTrace's signal.d and errno.d are int
 * constants: the values every Unix shares, the aliases (the number of the
 * name they stand for), raise() taking one.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d %d %d\n", SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGKILL,
	    SIGALRM, SIGTERM);
	printf("%d %d %d %d %d %d %d\n", EPERM, ENOENT, ESRCH, EINTR, EIO, E2BIG,
	    EACCES);
	printf("%d %d %d\n", SIGIOT == SIGABRT, EWOULDBLOCK == EAGAIN,
	    sizeof (SIGINT));
	raise(SIGCONT);
	exit(0);
}
