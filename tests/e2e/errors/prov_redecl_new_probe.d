/* A provider declared again may not add probes */
provider p {
	probe a(int);
};

provider p {
	probe a(int);
	probe b(int);
};
