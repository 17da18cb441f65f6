/* long is refused for a union once its definition opens */
long union pair {
	int i;
	char c;
} u;
