/*
 * The provider of dtgprog.c, for dtrace -h and dtrace -G (with
 * -L dtg_lib, which defines struct gstate and its translator).
 */
provider usdtg {
	probe start(int, char *);
	/* the output prototype reorders the arguments */
	probe done(int n, long total) : (long total, int n);
	/* eight arguments: the last two are passed on the stack */
	probe many(int, int, int, int, int, int, int, int);
	/* a translated argument */
	probe state(struct gstate *s) : (gstateinfo_t *s);
	/* in a static function */
	probe local__fn(int);
};

#pragma D attributes Evolving/Evolving/Common provider usdtg provider
#pragma D attributes Private/Private/Unknown provider usdtg module
#pragma D attributes Private/Private/Unknown provider usdtg function
#pragma D attributes Evolving/Evolving/Common provider usdtg name
#pragma D attributes Evolving/Evolving/ISA provider usdtg args
