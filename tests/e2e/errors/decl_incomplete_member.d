struct t {
	int a;
	struct nosuch n;
};
