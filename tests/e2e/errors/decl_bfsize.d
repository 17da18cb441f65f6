struct t {
	int a : 33;
};
