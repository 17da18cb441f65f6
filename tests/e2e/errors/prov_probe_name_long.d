/* A probe name is at most DTRACE_NAMELEN - 1 characters */
provider p {
	probe xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx();
};
