struct t {
	char *p : 3;
};
