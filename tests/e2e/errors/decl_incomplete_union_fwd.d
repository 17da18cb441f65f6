union u;
struct u {
	int a;
};
union u x;
