/* piddlopen LIB: twice, dlopen LIB, call dlfunc(0..2), dlclose. */
#include <dlfcn.h>
#include <stddef.h>

int
main(int argc, char **argv)
{
	int (*f)(int), s = 0;
	void *h;

	if (argc < 2)
		return 2;
	for (int round = 0; round < 2; round++) {
		if ((h = dlopen(argv[1], RTLD_NOW)) == NULL)
			return 1;
		if ((f = (int (*)(int))dlsym(h, "dlfunc")) == NULL)
			return 1;
		for (int i = 0; i < 3; i++)
			s += f(i);
		dlclose(h);
	}
	return s == 12 ? 0 : 1;
}
