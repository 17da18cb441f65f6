/* usdtdlopen LIB: twice, dlopen LIB, call dlfunc(0..2), dlclose; print how
 * often the library's guarded work ran. */
#include <dlfcn.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
	int (*f)(int), ran = 0;
	void *h;

	if (argc < 2)
		return 2;
	for (int round = 0; round < 2; round++) {
		if ((h = dlopen(argv[1], RTLD_NOW)) == NULL)
			return 1;
		if ((f = (int (*)(int))dlsym(h, "dlfunc")) == NULL)
			return 1;
		for (int i = 0; i < 3; i++)
			ran += f(i);
		dlclose(h);
	}
	printf("guarded work ran %d times\n", ran);
	return 0;
}
