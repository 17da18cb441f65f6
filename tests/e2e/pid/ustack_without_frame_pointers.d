pid$target:a.out:inner:entry
/!done/
{
	done = 1;
	ustack();
	exit(0);
}
