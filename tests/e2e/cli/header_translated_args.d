/*
 * dtrace -h with output (translated) prototypes: the header declares each
 * probe with its native (input) argument types, as DTrace's dt_header_probe
 * does; a named output argument maps to the input of that name.
 */
struct req { int id; long len; };
struct reqinfo { int ri_id; };

translator struct reqinfo < struct req *r > {
	ri_id = r->id;
};

provider srv {
	probe req__start(struct req *r, char *path) : (struct reqinfo *r, string path);
	probe req__done(int status, struct req *r) : (struct reqinfo *r, long status);
};
