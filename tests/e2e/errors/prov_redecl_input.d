/* With output prototypes on both, the input prototypes are compared too */
provider p {
	probe a(int x, char *s) : (long x);
};

provider p {
	probe a(int x, int *s) : (long x);
};
