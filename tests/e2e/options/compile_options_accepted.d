/*
 * Options DTrace accepts from a program and this host takes without a
 * visible effect: no -G link here (linkmode, linktype, strip, lazyload),
 * translators are always applied as the program is compiled (late), a
 * -c process is held until tracing starts, before any evaltime point,
 * and no kernel symbols are ever referenced (kdefs, knodefs).  The user
 * symbol ones (udefs, unodefs), pgmax and nolibs are checked too.
 */
#pragma D option evaltime=preinit
#pragma D option kdefs
#pragma D option knodefs
#pragma D option udefs
#pragma D option unodefs
#pragma D option late=dynamic
#pragma D option lazyload
#pragma D option linkmode=static
#pragma D option linktype=DOF
#pragma D option pgmax=0
#pragma D option strip
#pragma D option nolibs
#pragma D option iregs=8
#pragma D option tregs=8

BEGIN
{
	trace("accepted");
	exit(0);
}
