struct t {
	int a[int];
};
