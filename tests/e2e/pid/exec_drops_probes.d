pid$target:a.out:add:entry
{
	@ = count();
}
