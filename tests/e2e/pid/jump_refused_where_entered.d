/* enter_mid's jmp into entered carries a breakpoint first: the scan of the
 * text must see the jmp under it */
pid$target:a.out:enter_mid:5
{
	@[probefunc, probename] = count();
}

pid$target:a.out:entered:entry,
pid$target:a.out:enter_mid:entry
{
	@[probefunc, probename] = count();
}
