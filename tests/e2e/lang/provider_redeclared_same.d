/*
 * A provider may be declared again with the same probes; a probe first
 * declared without an output prototype may be declared again with one
 * whose arguments have the same types, and a later declaration then
 * compares with that one (DTrace's dt_node_provider_cmp).
 */
provider p {
	probe a(int x);
	probe b(char *s) : (string s);
};

provider p {
	probe a(int x) : (int x);
	probe b(char *s) : (string s);
};

provider p {
	probe a(int y) : (int y);
};
