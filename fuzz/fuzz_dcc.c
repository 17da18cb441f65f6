/* fuzz_dcc.c: libFuzzer over D source text; no input may crash the compiler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dt_compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	dt_cprog_free(dt_compile_string(s, NULL));
	free(s);
	return 0;
}
