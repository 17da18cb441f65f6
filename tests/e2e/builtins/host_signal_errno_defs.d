/*
 * host_signal_errno_defs.sh puts before this a clause adding up, in nbad, the
 * SIG* and E* numbers of the host's <signal.h> and <errno.h> whose D
 * constant differs.
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", nbad == 0 ? "every name agrees" : "some names differ");
	exit(nbad != 0);
}
