typedef int t[int];

struct s {
	int a;
	t b;
};
