pid$target:a.out:work:entry,
pid$target:libc.so.6:execve:entry
{
	@[probefunc] = count();
}
