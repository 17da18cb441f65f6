/* A provider the host has: a probe declared with other arguments than it has */
provider dtrace {
	probe BEGIN(int);
};
