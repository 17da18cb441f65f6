struct t {
	int a;
	void v;
};
