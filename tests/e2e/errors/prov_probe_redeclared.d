/* A probe declared twice in one provider: DTrace names it ::a-b (__ is -) */
provider p {
	probe a__b(int);
	probe a__b(char *);
};
