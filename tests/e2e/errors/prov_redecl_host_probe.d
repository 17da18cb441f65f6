/*
 * Declaring p again with a probe p lacks: DTrace finds a host probe of that
 * name (dtrace:::BEGIN, no arguments) and compares with it.
 */
provider p {
	probe a();
};

provider p {
	probe BEGIN(int);
};
