/* A provider name may not use the scoping operator ` */
provider p`q {
	probe a();
};
