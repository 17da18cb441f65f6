struct t {
	int a : -1;
};
