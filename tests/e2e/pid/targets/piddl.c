/* libpiddl.so: a library loaded and unloaded while traced. */
__attribute__((noinline)) int
dlfunc(int x)
{
	__asm__ volatile("");
	return x * 2;
}
