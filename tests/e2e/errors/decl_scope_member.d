struct t {
	int a`b;
};
