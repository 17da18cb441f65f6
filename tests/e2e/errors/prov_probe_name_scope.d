/* A probe name may not use the scoping operator ` */
provider p {
	probe a`b();
};
