/* Provider definitions for dtrace -h: '__' in a probe name is '-' */
provider myapp {
	probe query__start(char *, int);
	probe query__done(int);
	probe idle();
};

provider net_io {
	probe send(struct conn *c, unsigned long long n) : (struct conn *c, long n);
};
