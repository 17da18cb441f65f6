pid$target:a.out:add:entry
{
	printf("entry %d %d\n", arg0, arg1);
}

pid$target:a.out:add:return
{
	printf("return %d\n", (int)arg1);
}
