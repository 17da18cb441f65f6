pid$target:a.out:jumpable:entry
{
	@ = count();
}
