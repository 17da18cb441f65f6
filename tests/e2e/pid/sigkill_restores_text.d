pid$target:a.out:tick:entry
{
	@ = count();
}
