/* An output argument needs a translator from its input, or a compatible type */
struct s { int a; };

provider p {
	probe a(int n, struct s *x) : (long n, int x);
};
