/* A probe's input prototype may not end in ... */
provider p {
	probe a(int, ...);
};
