/* The input prototype's parameter names are unique */
provider p {
	probe a(int x, char *x);
};
