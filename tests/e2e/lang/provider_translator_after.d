/*
 * DTrace checks a provider's output arguments when it compiles the
 * program, after parsing all of it: a translator defined after the
 * provider serves its probe (struct req * to struct reqinfo *).
 */
struct req { int id; };
struct reqinfo { int ri_id; };

provider srv {
	probe start(struct req *r) : (struct reqinfo *r);
};

translator struct reqinfo < struct req *r > {
	ri_id = r->id;
};
