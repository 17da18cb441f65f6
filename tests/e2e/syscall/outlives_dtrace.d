syscall::write:entry,
syscall::getppid:return
/pid == $target/
{
	@[probefunc] = count();
}
