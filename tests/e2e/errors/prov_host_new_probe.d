/* A provider the host has: a probe it does not have */
provider dtrace {
	probe BEGIN();
	probe MIDDLE();
};
