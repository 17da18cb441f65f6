pid$target:a.out:done:entry
/!seen/
{
	seen = 1;
	printf("done() fired: dtrace is unharmed\n");
	exit(0);
}
