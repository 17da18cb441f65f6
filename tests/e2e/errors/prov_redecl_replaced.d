/*
 * A probe declared again with an output prototype replaces the declaration
 * without one: the third declaration's input types are then compared too.
 */
provider p {
	probe a(int x, char *s);
};

provider p {
	probe a(int x, char *s) : (int x, char *s);
};

provider p {
	probe a(int x, void *s) : (int x, char *s);
};
