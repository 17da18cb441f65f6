pid$target:a.out:greet:entry
{
	printf("name %s\n", copyinstr(arg0));
	printf("uregs[first argument register] is arg0: %d\n", uregs[$1] == arg0);
	printf("execname %s, pid is $target %d, tid is pid %d\n", execname, pid == $target, tid == pid);
	printf("probe %s:%s:%s\n", probemod, probefunc, probename);
	usym(uregs[R_PC]);
	umod(uregs[R_PC]);
	ufunc(ucaller);
}

pid$target:a.out:greet:return
{
	printf("returns %d\n", arg1);
}
