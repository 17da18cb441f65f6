/*
 * Entry arguments (arg5 included), return values in arg0 and arg1, errno
 * after a failed call, and probefunc, for calls whose values are known.
 */
syscall::openat:entry
/pid == $target && copyinstr(arg1) == "/nonexistent/dtrace"/
{
	self->open = 1;
	printf("%s:%s dirfd %d flags %d\n", probefunc, probename, (int)arg0, arg2);
}

syscall::openat:return
/self->open/
{
	printf("%s:%s %d %d errno %d\n", probefunc, probename, arg0, arg1, errno);
	self->open = 0;
}

syscall::write:entry
/pid == $target && arg0 == 1 && arg2 == 15/
{
	self->write = 1;
	printf("%s:%s \"%s\"", probefunc, probename, copyinstr(arg1, arg2));
}

syscall::write:return
/self->write/
{
	printf("%s:%s %d errno %d\n", probefunc, probename, arg0, errno);
	self->write = 0;
}

syscall::mmap:entry
/pid == $target && arg1 == 8192 && arg5 == 4096/
{
	self->mmap = 1;
	printf("%s:%s length %d prot %d flags %d offset %d\n", probefunc, probename, arg1, arg2,
	    arg3, arg5);
}

syscall::mmap:return
/self->mmap/
{
	printf("%s:%s %s\n", probefunc, probename, arg0 == arg1 && arg0 > 0 ? "an address" : "?");
	self->mmap = 0;
}

syscall::getppid:return
/pid == $target/
{
	printf("%s:%s %s\n", probefunc, probename, arg0 == ppid ? "ppid" : "not ppid");
}
