pid$target:libc.so.6::entry
{
	n++;
}

END
{
	printf("%s\n", n > 50 ? "libc calls seen" : "too few libc calls");
}
