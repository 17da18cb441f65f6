/* Every call of the program traced, entry and return. */
syscall:::entry,
syscall:::return
/pid == $target/
{
	@[probename] = count();
}

END
{
	printa("%s fired: %@d\n", @);
}
