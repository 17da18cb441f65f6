/* A provider the host has: an output prototype where its probe has none */
provider dtrace {
	probe BEGIN() : (void);
};
