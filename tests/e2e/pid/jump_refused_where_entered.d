pid$target:a.out:entered:entry,
pid$target:a.out:enter_mid:entry
{
	@[probefunc] = count();
}
