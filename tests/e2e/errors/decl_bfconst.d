struct t {
	int a : 0;
};
