/*
 * A probe a provider has not declared is looked up on the host by its name
 * alone (DTrace's dt_probe_lookup leaves the provider out of the
 * description): declaring dtrace:::tick-1s, or p:::BEGIN when declaring p
 * again, compares with the host's profile:::tick-1s and dtrace:::BEGIN
 * (no arguments) instead of being a new probe.
 */
provider dtrace {
	probe tick__1s();
};

provider p {
	probe a();
};

provider p {
	probe BEGIN();
};
