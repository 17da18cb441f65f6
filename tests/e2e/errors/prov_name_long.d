/* A provider name is at most DTRACE_PROVNAMELEN - 1 characters */
provider xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx {
	probe a();
};
