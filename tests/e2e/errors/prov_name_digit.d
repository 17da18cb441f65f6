/* A provider name may not end with a digit (its pid is appended) */
provider p1 {
	probe a();
};
