/*
 * The issue's one-liner, and the same count from __libc_start_main on
 * (the part of a run both dtrace and strace -k can tell apart: the
 * dynamic loader's calls come before any agent is in the process).
 */
pid$target:libc.so.6:__libc_start_main:entry
{
	self->main = 1;
}

syscall:::entry
/pid == $target/
{
	@all[probefunc] = count();
}

syscall:::entry
/self->main/
{
	@main[probefunc] = count();
}

END
{
	printa("all %s %@d\n", @all);
	printa("main %s %@d\n", @main);
}
