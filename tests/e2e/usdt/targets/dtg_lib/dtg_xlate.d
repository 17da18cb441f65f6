/* What dtgprog.c's probes pass, and how D sees it (a D library: -L). */
struct gstate {
	int count;
	char *name;
};

typedef struct gstateinfo {
	int gi_count;
	string gi_name;
} gstateinfo_t;

#pragma D binding "1.0" translator
translator gstateinfo_t < struct gstate *S > {
	gi_count = S->count;
	gi_name = copyinstr((uintptr_t)S->name);
};
