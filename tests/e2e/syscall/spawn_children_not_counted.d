/* The parent's calls around posix_spawn; none of its children's. */
syscall::execve:entry,
syscall::dup2:entry,
syscall::wait4:return
/pid == $target/
{
	@[probefunc, probename] = count();
}

END
{
	printa("%s:%s %@d\n", @);
}
