/* A name in the output prototype must be an input parameter's */
provider p {
	probe a(int x) : (long y);
};
