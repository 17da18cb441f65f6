pid$target:a.out:eight:entry
{
	printf("%d %d %d %d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7);
}
