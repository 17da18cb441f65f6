struct t {
	int a;
	char a;
};
