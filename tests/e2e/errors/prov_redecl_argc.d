/* A provider declared again: each probe keeps its argument count */
provider p {
	probe a(int);
};

provider p {
	probe a(int, int);
};
