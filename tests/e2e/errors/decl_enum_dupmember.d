enum e {
	A,
	B,
	A };
