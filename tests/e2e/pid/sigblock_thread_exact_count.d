pid$target:a.out:work:entry
{
	@ = count();
}
