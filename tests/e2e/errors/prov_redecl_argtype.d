/* A provider declared again: each probe keeps its argument types */
provider p {
	probe a(int, char *);
};

provider p {
	probe a(int, char);
};
