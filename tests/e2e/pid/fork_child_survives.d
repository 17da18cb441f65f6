pid$target:a.out:add:entry
{
	@[pid == $target ? "parent" : "child"] = count();
}
